package dev.agcore.memory.window;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random conversations with tool calls, and the pairing rule every shaped conversation
 * must keep.
 */
public final class Conversations {

	private Conversations() {
	}

	/**
	 * Assert the pairing rule: an assistant message that calls tools is followed by the
	 * results of all its calls, and no tool result is sent without its call.
	 */
	public static void assertPaired(List<Message> messages) {
		Set<String> open = new HashSet<>();
		for (Message message : messages) {
			if (message instanceof ToolResultMessage result) {
				assertThat(open).as("result %s follows its call in %s", result.toolCallId(), messages)
					.contains(result.toolCallId());
				open.remove(result.toolCallId());
			}
			else {
				assertThat(open).as("calls answered before %s in %s", message, messages).isEmpty();
				if (message instanceof AssistantMessage assistant) {
					assistant.toolCalls().stream().map(ToolCall::id).forEach(open::add);
				}
			}
		}
		assertThat(open).as("calls answered at the end of %s", messages).isEmpty();
	}

	/**
	 * A conversation of whole turns (user, then assistant messages with zero or more
	 * rounds of tool calls and results, then an answer), ending with a new user message.
	 * @param random the source of randomness
	 * @param turns how many complete turns precede the new message
	 * @return the conversation
	 */
	public static List<Message> random(Random random, int turns) {
		List<Message> messages = new ArrayList<>();
		int ids = 0;
		for (int turn = 0; turn < turns; turn++) {
			messages.add(new UserMessage("question " + turn + " " + "q".repeat(random.nextInt(200))));
			int rounds = random.nextInt(3);
			for (int round = 0; round < rounds; round++) {
				int calls = 1 + random.nextInt(3);
				List<ToolCall> toolCalls = new ArrayList<>();
				for (int i = 0; i < calls; i++) {
					toolCalls.add(new ToolCall("c" + ids++, "tool" + i, "{\"n\":" + i + "}"));
				}
				messages.add(new AssistantMessage("r".repeat(random.nextInt(2) * 20), toolCalls));
				for (ToolCall call : toolCalls) {
					messages.add(ToolResultMessage.success(call, "result " + "x".repeat(random.nextInt(400))));
				}
			}
			messages.add(AssistantMessage.of("answer " + turn + " " + "a".repeat(random.nextInt(300))));
		}
		messages.add(new UserMessage("new question"));
		return messages;
	}

}
