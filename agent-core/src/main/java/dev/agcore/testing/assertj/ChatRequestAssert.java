package dev.agcore.testing.assertj;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.tool.ToolSpec;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a request a model received: its system prompt, tools and messages.
 */
public final class ChatRequestAssert extends AbstractAssert<ChatRequestAssert, ChatRequest> {

	ChatRequestAssert(ChatRequest actual) {
		super(actual, ChatRequestAssert.class);
	}

	/**
	 * Verify that the request has a system prompt containing the given text.
	 * @param text the text
	 * @return this
	 */
	public ChatRequestAssert systemPromptContains(String text) {
		isNotNull();
		List<Message> messages = this.actual.messages();
		if (messages.isEmpty() || !(messages.get(0) instanceof SystemMessage system)) {
			failWithMessage("Expected a system prompt containing%n  \"%s\"%nbut the request has no system prompt", text);
			return this;
		}
		if (!system.text().contains(text)) {
			failWithMessage("Expected the system prompt to contain%n  \"%s\"%nbut it was%n  \"%s\"", text,
					system.text());
		}
		return this;
	}

	/**
	 * Verify that the request offers a tool of the given name.
	 * @param name the tool name
	 * @return this
	 */
	public ChatRequestAssert hasToolNamed(String name) {
		isNotNull();
		if (!toolNames().contains(name)) {
			failWithMessage("Expected the request to offer tool '%s' but it offered %s", name, toolNames());
		}
		return this;
	}

	/**
	 * Verify that the request does not offer a tool of the given name.
	 * @param name the tool name
	 * @return this
	 */
	public ChatRequestAssert doesNotHaveToolNamed(String name) {
		isNotNull();
		if (toolNames().contains(name)) {
			failWithMessage("Expected the request not to offer tool '%s' but it offered %s", name, toolNames());
		}
		return this;
	}

	/**
	 * Verify the text of the request's last user message.
	 * @param text the expected text
	 * @return this
	 */
	public ChatRequestAssert lastUserMessageIsEqualTo(String text) {
		isNotNull();
		List<Message> messages = this.actual.messages();
		for (int i = messages.size() - 1; i >= 0; i--) {
			if (messages.get(i) instanceof UserMessage user) {
				if (!user.text().equals(text)) {
					failWithMessage("Expected the last user message to be%n  \"%s\"%nbut it was%n  \"%s\"", text,
							user.text());
				}
				return this;
			}
		}
		failWithMessage("Expected the last user message to be%n  \"%s\"%nbut the request has no user message", text);
		return this;
	}

	/**
	 * Verify that the request carries a tool result containing the given text (the
	 * model is told what a tool returned).
	 * @param text the text
	 * @return this
	 */
	public ChatRequestAssert hasToolResultContaining(String text) {
		isNotNull();
		List<String> results = this.actual.messages()
			.stream()
			.filter(ToolResultMessage.class::isInstance)
			.map(Message::text)
			.toList();
		if (results.stream().noneMatch((result) -> result.contains(text))) {
			failWithMessage("Expected a tool result containing%n  \"%s\"%nbut the tool results were%n  %s", text,
					results);
		}
		return this;
	}

	private List<String> toolNames() {
		return this.actual.tools().stream().map(ToolSpec::name).toList();
	}

}
