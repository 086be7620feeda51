package dev.agcore.autoconfigure.web.a2a;

import java.util.UUID;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;

/**
 * The scripted model of the A2A tests: "Delete <path>" calls delete_file (which needs
 * approval), "Weather in <city>" calls get_weather, and then the model reports the tool's
 * result; anything else is echoed.
 */
final class A2aTestModels {

	private A2aTestModels() {
	}

	static ChatModel scripted() {
		return ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("Done: " + result.text());
			}
			String text = ((UserMessage) last).text();
			if (text.startsWith("Delete ")) {
				return ScriptedChatModel.toolCalls(new ToolCall("call-" + UUID.randomUUID(), "delete_file",
						"{\"path\": \"" + text.substring("Delete ".length()) + "\"}"));
			}
			if (text.startsWith("Weather in ")) {
				return ScriptedChatModel.toolCalls(new ToolCall("call-" + UUID.randomUUID(), "get_weather",
						"{\"city\": \"" + text.substring("Weather in ".length()) + "\"}"));
			}
			return ScriptedChatModel.text("Echo: " + text);
		}).withoutRecording();
	}

}
