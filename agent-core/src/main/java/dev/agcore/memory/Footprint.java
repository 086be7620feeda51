package dev.agcore.memory;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Estimates of what the in-memory stores hold, for {@link InMemoryBytes}: two bytes per
 * character (a Java string of non-Latin text), the bytes of inline media, and a fixed
 * overhead per object. Cheap: linear in what is estimated, and only what a write adds or
 * a removal frees is estimated.
 */
final class Footprint {

	private Footprint() {
	}

	static long of(Message message) {
		long bytes = InMemoryBytes.MESSAGE_OVERHEAD + chars(message.text());
		if (message instanceof AssistantMessage assistant) {
			for (ToolCall call : assistant.toolCalls()) {
				bytes += InMemoryBytes.MESSAGE_OVERHEAD + chars(call.id()) + chars(call.name())
						+ chars(call.arguments());
			}
			for (Reasoning reasoning : assistant.reasoning()) {
				bytes += InMemoryBytes.MESSAGE_OVERHEAD + chars(reasoning.text()) + chars(reasoning.signature())
						+ chars(reasoning.redactedData());
			}
			bytes += chars(assistant.refusal()) + chars(assistant.agent());
		}
		else if (message instanceof UserMessage user) {
			for (Media media : user.media()) {
				byte[] data = media.data();
				bytes += InMemoryBytes.MESSAGE_OVERHEAD + chars(media.mediaType()) + chars(media.fileName())
						+ ((media.url() != null) ? chars(media.url().toString()) : 0) + ((data != null) ? data.length : 0);
			}
			bytes += chars(user.name());
		}
		else if (message instanceof ToolResultMessage result) {
			bytes += chars(result.toolCallId()) + chars(result.toolName());
		}
		return bytes;
	}

	/** The bytes of a whole conversation. */
	static long ofConversation(List<Message> messages) {
		return InMemoryBytes.SESSION_OVERHEAD + of(messages);
	}

	/**
	 * The bytes of a conversation after an append, from those before it: only the messages
	 * added and those dropped off the front are estimated, so an append's cost does not
	 * grow with the history.
	 */
	static long afterAppend(List<Message> before, long bytesBefore, List<Message> added, List<Message> after) {
		int dropped = before.size() + added.size() - after.size();
		if (dropped >= before.size()) {
			// nothing of the history is left: no more than was added
			return ofConversation(after);
		}
		long bytes = bytesBefore;
		for (int i = 0; i < dropped; i++) {
			bytes -= of(before.get(i));
		}
		return bytes + of(added);
	}

	static long of(List<Message> messages) {
		long bytes = 0;
		for (Message message : messages) {
			bytes += of(message);
		}
		return bytes;
	}

	static long of(@Nullable PendingTurn turn) {
		if (turn == null) {
			return 0;
		}
		long bytes = InMemoryBytes.SESSION_OVERHEAD + of(turn.messages()) + chars(turn.agentName());
		for (PendingTurn.PendingToolCall call : turn.pendingCalls()) {
			bytes += InMemoryBytes.MESSAGE_OVERHEAD + chars(call.id()) + chars(call.name()) + chars(call.arguments())
					+ chars(call.reason());
		}
		return bytes;
	}

	static long of(String key, JsonNode value, JsonNode metadata) {
		return InMemoryBytes.ITEM_OVERHEAD + chars(key) + json(value) + json(metadata);
	}

	private static long json(JsonNode node) {
		if (node.isString()) {
			return chars(node.asString());
		}
		return (node.isContainer() && node.isEmpty()) ? 0 : chars(node.toString());
	}

	static long chars(@Nullable String text) {
		return (text != null) ? 2L * text.length() : 0;
	}

}
