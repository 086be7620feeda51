package dev.agcore.a2a.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.PendingTurn;
import dev.agcore.runtime.ToolDecision;
import io.a2a.spec.ContentTypeNotSupportedError;
import io.a2a.spec.DataPart;
import io.a2a.spec.Message;
import io.a2a.spec.Part;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;

/**
 * Reads the text of a caller's message and its decisions on a paused turn, and writes the
 * agent's messages. A bad message is a JSON-RPC error naming what was wrong.
 */
final class A2aMessages {

	/** The longest message text a caller may send (as the turn's message). */
	static final int MAX_TEXT_LENGTH = 100_000;

	static final String DECISIONS_HELP = "answer a task in state input-required with a text part 'approve' or "
			+ "'reject' (for all waiting tool calls), or a data part {\"decisions\": {\"<tool call id>\": "
			+ "{\"type\": \"approve\" | \"reject\" | \"edit\", \"reason\": \"...\", \"arguments\": {...}}}}";

	private static final Set<String> APPROVALS = Set.of("approve", "approved", "yes", "y", "ok");

	private static final Set<String> REJECTIONS = Set.of("reject", "rejected", "no", "n", "deny");

	private A2aMessages() {
	}

	/**
	 * The text of a message: its text parts, and its data parts as JSON, in order.
	 * @throws A2aFailure an invalid-params error for a message without text, or too long
	 * @throws A2aFailure a content-type-not-supported error for a file part
	 */
	static String text(Message message) {
		StringBuilder text = new StringBuilder();
		for (Part<?> part : parts(message)) {
			String piece;
			if (part instanceof TextPart textPart) {
				piece = textPart.getText();
			}
			else if (part instanceof DataPart data) {
				piece = Utils.toJsonString(data.getData());
			}
			else {
				throw new A2aFailure(new ContentTypeNotSupportedError(null,
						"The agent reads text and data parts only, not " + part.getKind().asString() + " parts", null));
			}
			if (piece == null || piece.isEmpty()) {
				continue;
			}
			if (!text.isEmpty()) {
				text.append("\n\n");
			}
			text.append(piece);
		}
		if (text.toString().isBlank()) {
			throw A2aFailure.invalidParams("params.message has no text: send at least one non-empty text part");
		}
		if (text.length() > MAX_TEXT_LENGTH) {
			throw A2aFailure.invalidParams("params.message must be at most " + MAX_TEXT_LENGTH + " characters of text, was "
					+ text.length());
		}
		return text.toString();
	}

	/**
	 * The decisions a message gives on a paused turn's tool calls.
	 * @throws A2aFailure an invalid-params error for a message that decides nothing, or not each call
	 */
	static Map<String, ToolDecision> decisions(Message message, PendingTurn pending) {
		for (Part<?> part : parts(message)) {
			if (part instanceof DataPart data && data.getData() != null && data.getData().get("decisions") != null) {
				return decisions(data.getData().get("decisions"), pending);
			}
		}
		String text = textOnly(message).strip().toLowerCase(Locale.ROOT);
		ToolDecision all;
		if (APPROVALS.contains(text)) {
			all = ToolDecision.approve();
		}
		else if (REJECTIONS.contains(text)) {
			all = ToolDecision.reject("The user rejected the call");
		}
		else {
			throw A2aFailure.invalidParams("The task waits for a decision on its tool calls " + callIds(pending) + ": "
					+ DECISIONS_HELP);
		}
		Map<String, ToolDecision> decisions = new LinkedHashMap<>();
		pending.pendingCalls().forEach((call) -> decisions.put(call.id(), all));
		return decisions;
	}

	private static Map<String, ToolDecision> decisions(Object value, PendingTurn pending) {
		if (!(value instanceof Map<?, ?> map)) {
			throw A2aFailure.invalidParams("'decisions' must be an object by tool call id: " + DECISIONS_HELP);
		}
		Map<String, ToolDecision> decisions = new LinkedHashMap<>();
		map.forEach((id, decision) -> decisions.put(String.valueOf(id), decision(String.valueOf(id), decision)));
		return decisions;
	}

	private static ToolDecision decision(String id, Object value) {
		String field = "'decisions." + id;
		if (!(value instanceof Map<?, ?> decision) || !(decision.get("type") instanceof String type)) {
			throw A2aFailure.invalidParams(field + "' must be an object with a type: approve, edit or reject");
		}
		return switch (type.strip().toLowerCase(Locale.ROOT)) {
			case "approve" -> ToolDecision.approve();
			case "edit" -> {
				if (!(decision.get("arguments") instanceof Map<?, ?> arguments)) {
					throw A2aFailure.invalidParams(field + ".arguments' is required for an edit: a JSON object");
				}
				yield ToolDecision.edit(AgentJson.mapper().writeValueAsString(arguments));
			}
			case "reject" -> ToolDecision.reject((decision.get("reason") instanceof String reason) ? reason
					: "The user rejected the call");
			default -> throw A2aFailure.invalidParams(field + ".type' must be approve, edit or reject");
		};
	}

	private static String textOnly(Message message) {
		StringBuilder text = new StringBuilder();
		for (Part<?> part : parts(message)) {
			if (part instanceof TextPart textPart && textPart.getText() != null) {
				text.append(textPart.getText());
			}
		}
		return text.toString();
	}

	private static List<String> callIds(PendingTurn pending) {
		return pending.pendingCalls().stream().map(PendingTurn.PendingToolCall::id).toList();
	}

	private static List<Part<?>> parts(Message message) {
		return (message.getParts() != null) ? message.getParts() : List.of();
	}

	/** An agent message of a task. */
	static Message agent(String taskId, String contextId, List<Part<?>> parts) {
		return new Message(Message.Role.AGENT, parts, UUID.randomUUID().toString(), contextId, taskId, null, null,
				null);
	}

	/** The agent's message of a turn paused for decisions: what waits, as text and as data. */
	static Message waiting(String taskId, String contextId, List<PendingTurn.PendingToolCall> calls) {
		StringBuilder text = new StringBuilder("Waiting for approval of ");
		List<Map<String, Object>> data = new ArrayList<>();
		for (int i = 0; i < calls.size(); i++) {
			PendingTurn.PendingToolCall call = calls.get(i);
			text.append((i > 0) ? ", " : "").append(call.name()).append(" (call ").append(call.id()).append(')');
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("id", call.id());
			entry.put("name", call.name());
			entry.put("arguments", call.arguments());
			entry.put("reason", call.reason());
			data.add(entry);
		}
		text.append(". Reply 'approve' or 'reject' on this task, or send decisions by tool call id.");
		return agent(taskId, contextId, List.of(new TextPart(text.toString()),
				new DataPart(Map.of("pendingToolCalls", data))));
	}

}
