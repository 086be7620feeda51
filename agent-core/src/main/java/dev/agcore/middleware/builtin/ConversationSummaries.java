package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import reactor.core.publisher.Mono;

/**
 * What the middleware that summarize conversations share: where to cut, how the older
 * part is written out for the summarizing model, and the summary message that replaces
 * it.
 */
final class ConversationSummaries {

	private ConversationSummaries() {
	}

	/**
	 * Return where to cut: the messages before it are summarized. Keeps the last
	 * {@code keep} messages, and moves back so that tool results stay with the assistant
	 * message that called them.
	 */
	static int cutPoint(List<Message> conversation, int keep) {
		int cut = conversation.size() - keep;
		while (cut > 0 && conversation.get(cut) instanceof ToolResultMessage) {
			cut--;
		}
		return Math.max(cut, 0);
	}

	/** Ask the model for a summary of the messages; an empty answer is an error. */
	static Mono<String> summarize(ChatModel model, String prompt, List<Message> messages) {
		ChatRequest request = ChatRequest.of(List.of(new SystemMessage(prompt), new UserMessage(transcript(messages))));
		return model.call(request).map((response) -> {
			String text = response.message().text().strip();
			if (text.isEmpty()) {
				throw new IllegalStateException("the summarizing model returned no text");
			}
			return text;
		});
	}

	static String transcript(List<Message> messages) {
		StringBuilder transcript = new StringBuilder();
		for (Message message : messages) {
			if (!transcript.isEmpty()) {
				transcript.append("\n\n");
			}
			if (message instanceof AssistantMessage assistant) {
				transcript.append("Assistant: ").append(assistant.text());
				assistant.toolCalls()
					.forEach((call) -> transcript.append("\n[called tool ")
						.append(call.name())
						.append(" with ")
						.append(call.arguments())
						.append(']'));
			}
			else if (message instanceof ToolResultMessage result) {
				transcript.append("Tool ")
					.append(result.toolName())
					.append(result.error() ? " failed: " : " returned: ")
					.append(result.text());
			}
			else {
				transcript.append((message instanceof UserMessage) ? "User: " : "System: ").append(message.text());
			}
		}
		return transcript.toString();
	}

	static UserMessage summaryMessage(String text) {
		return new UserMessage(SummarizationMiddleware.SUMMARY_PREFIX + "\n" + text);
	}

	static List<Message> replacePrefix(List<Message> messages, int count, Message replacement) {
		List<Message> replaced = new ArrayList<>(messages.size() - count + 1);
		replaced.add(replacement);
		replaced.addAll(messages.subList(count, messages.size()));
		return replaced;
	}

	static void replacePrefixInPlace(List<Message> messages, int count, Message replacement) {
		List<Message> prefix = messages.subList(0, count);
		prefix.clear();
		prefix.add(replacement);
	}

}
