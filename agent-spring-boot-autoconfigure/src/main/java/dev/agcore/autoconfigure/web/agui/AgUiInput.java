package dev.agcore.autoconfigure.web.agui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.agcore.autoconfigure.web.HttpFailure;
import dev.agcore.json.AgentJson;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.ToolDecision;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;

/**
 * What an AG-UI {@code RunAgentInput} asks of an agent: the thread (the agent's session),
 * the run, the new user message(s) at the end of {@code messages}, the text of the
 * messages before them, the client's state and context, and the answers to the
 * interrupts of a paused run ({@code resume}).
 *
 * @param threadId the thread, used as the session id
 * @param runId the run, a random one when the client sent none
 * @param message the text of the user messages after the last message of another role
 * @param earlier the user and assistant messages before them, oldest first, as
 * {@code role: text}; tool, system, developer, activity and reasoning messages left out
 * @param state the client's state when it is a JSON object, else empty
 * @param context the client's context entries, {@code description: value}
 * @param decisions a decision per interrupted tool call id when the run resumes a paused
 * one; {@code null} for a new turn
 */
record AgUiInput(String threadId, String runId, String message, List<Turn> earlier, Map<String, Object> state,
		List<String> context, @Nullable Map<String, ToolDecision> decisions) {

	static final String EXPECTED_BODY = "expected an AG-UI RunAgentInput: a JSON object with 'threadId', "
			+ "'runId' and 'messages'";

	private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() {
	};

	/** The longest transcript of earlier messages put before the new message of an unknown thread. */
	static final int MAX_HISTORY_LENGTH = 32_000;

	/**
	 * Read a request body.
	 * @param body the JSON body
	 * @return the input
	 * @throws RuntimeException a 400 ({@link HttpFailure#exception}) naming what is wrong
	 */
	static AgUiInput read(JsonNode body) {
		if (!body.isObject()) {
			throw badRequest("The request body must be a JSON object: " + EXPECTED_BODY);
		}
		String threadId = text(body.get("threadId"), "threadId");
		if (threadId == null || threadId.isBlank()) {
			throw badRequest("'threadId' is required and must not be blank");
		}
		if (threadId.length() > AgentRequest.MAX_SESSION_ID_LENGTH) {
			throw badRequest("'threadId' must be at most " + AgentRequest.MAX_SESSION_ID_LENGTH
					+ " characters, was " + threadId.length());
		}
		String runId = text(body.get("runId"), "runId");
		if (runId == null || runId.isBlank()) {
			runId = UUID.randomUUID().toString();
		}
		JsonNode state = body.get("state");
		Map<String, Object> clientState = (state != null && state.isObject())
				? AgentJson.mapper().convertValue(state, JSON_OBJECT) : Map.of();
		Map<String, ToolDecision> decisions = decisions(body.get("resume"));
		JsonNode messages = body.get("messages");
		if (messages == null || !messages.isArray()) {
			throw badRequest("'messages' is required and must be an array");
		}
		List<Turn> turns = new ArrayList<>();
		int lastOther = -1;
		for (int i = 0; i < messages.size(); i++) {
			JsonNode each = messages.get(i);
			String role = text(each.get("role"), "messages[" + i + "].role");
			if (role == null) {
				throw badRequest("'messages[" + i + "].role' is required");
			}
			if ("user".equals(role)) {
				turns.add(new Turn("user", content(each.get("content"), i)));
			}
			else if (!"system".equals(role) && !"developer".equals(role)) {
				lastOther = turns.size() - 1;
				if ("assistant".equals(role)) {
					JsonNode content = each.get("content");
					if (content != null && content.isString() && !content.asString().isBlank()) {
						turns.add(new Turn("assistant", content.asString()));
						lastOther = turns.size() - 1;
					}
				}
			}
		}
		List<Turn> earlier = turns.subList(0, lastOther + 1);
		List<String> newMessages = turns.subList(lastOther + 1, turns.size())
			.stream()
			.map(Turn::text)
			.filter((text) -> !text.isBlank())
			.toList();
		if (newMessages.isEmpty() && decisions == null) {
			throw badRequest("'messages' must end with a user message with text: the turn's input");
		}
		return new AgUiInput(threadId, runId, String.join("\n\n", newMessages), List.copyOf(earlier), clientState,
				context(body.get("context")), decisions);
	}

	/**
	 * The turn's message: the new user message(s), after a transcript of the earlier
	 * messages when the thread is not one the agent knows.
	 * @param threadKnown whether the agent has a stored conversation for the thread
	 * @return the message
	 */
	String turnMessage(boolean threadKnown) {
		if (threadKnown || this.earlier.isEmpty()) {
			return this.message;
		}
		// the newest earlier messages that fit, oldest first
		List<String> kept = new ArrayList<>();
		int length = 0;
		for (int i = this.earlier.size() - 1; i >= 0; i--) {
			Turn turn = this.earlier.get(i);
			String line = "<" + turn.role() + ">\n" + turn.text() + "\n</" + turn.role() + ">";
			if (length + line.length() > MAX_HISTORY_LENGTH) {
				break;
			}
			kept.add(0, line);
			length += line.length();
		}
		if (kept.isEmpty()) {
			return this.message;
		}
		return "The conversation so far, as the client sent it:\n\n" + String.join("\n", kept)
				+ "\n\nThe new message:\n\n" + this.message;
	}

	/**
	 * The client's context entries as one text, for the turn's instructions.
	 * @return the text, or {@code null} for none
	 */
	@Nullable String contextText() {
		return this.context.isEmpty() ? null : String.join("\n", this.context);
	}

	private static List<String> context(@Nullable JsonNode context) {
		if (context == null || context.isNull()) {
			return List.of();
		}
		if (!context.isArray()) {
			throw badRequest("'context' must be an array of {\"description\", \"value\"} objects");
		}
		List<String> entries = new ArrayList<>();
		for (int i = 0; i < context.size(); i++) {
			JsonNode entry = context.get(i);
			String description = text(entry.get("description"), "context[" + i + "].description");
			String value = text(entry.get("value"), "context[" + i + "].value");
			if (value == null) {
				throw badRequest("'context[" + i + "].value' is required");
			}
			entries.add((description != null && !description.isBlank()) ? description + ": " + value : value);
		}
		return entries;
	}

	// a string, or the text parts of an array of parts; another part is refused
	private static String content(@Nullable JsonNode content, int index) {
		if (content != null && content.isString()) {
			return content.asString();
		}
		if (content != null && content.isArray()) {
			StringBuilder text = new StringBuilder();
			for (int i = 0; i < content.size(); i++) {
				JsonNode part = content.get(i);
				String type = part.path("type").asString("");
				if (!"text".equals(type)) {
					throw badRequest("'messages[" + index + "].content[" + i + "]': only text parts are supported, not '"
							+ type + "'");
				}
				text.append(part.path("text").asString(""));
			}
			return text.toString();
		}
		throw badRequest("'messages[" + index + "].content' of a user message must be a string or an array of "
				+ "text parts");
	}

	/*
	 * The answers to a paused run's interrupts, by tool call id: "cancelled" rejects the
	 * call; "resolved" approves it, unless its payload says otherwise:
	 * {"type": "approve" | "edit" | "reject", "arguments": {...}, "reason": "..."}.
	 */
	private static @Nullable Map<String, ToolDecision> decisions(@Nullable JsonNode resume) {
		if (resume == null || resume.isNull() || (resume.isArray() && resume.isEmpty())) {
			return null;
		}
		if (!resume.isArray()) {
			throw badRequest("'resume' must be an array of {\"interruptId\", \"status\"} entries");
		}
		Map<String, ToolDecision> decisions = new LinkedHashMap<>();
		for (int i = 0; i < resume.size(); i++) {
			JsonNode entry = resume.get(i);
			String field = "resume[" + i + "]";
			String id = text(entry.get("interruptId"), field + ".interruptId");
			if (id == null || id.isBlank()) {
				throw badRequest("'" + field + ".interruptId' is required: the id of an interrupt to answer");
			}
			String status = text(entry.get("status"), field + ".status");
			if ("cancelled".equals(status)) {
				decisions.put(id, ToolDecision.reject("The user cancelled the call"));
			}
			else if ("resolved".equals(status)) {
				decisions.put(id, decision(entry.get("payload"), field + ".payload"));
			}
			else {
				throw badRequest("'" + field + ".status' must be resolved or cancelled");
			}
		}
		return decisions;
	}

	private static ToolDecision decision(@Nullable JsonNode payload, String field) {
		if (payload == null || payload.isNull()) {
			return ToolDecision.approve();
		}
		if (payload.isBoolean()) {
			return payload.asBoolean() ? ToolDecision.approve() : ToolDecision.reject("");
		}
		if (!payload.isObject()) {
			throw badRequest("'" + field + "' must be an object such as {\"type\": \"approve\"}");
		}
		String type = text(payload.get("type"), field + ".type");
		return switch ((type != null) ? type.strip().toLowerCase(Locale.ROOT) : "approve") {
			case "approve" -> ToolDecision.approve();
			case "edit" -> {
				JsonNode arguments = payload.get("arguments");
				if (arguments == null || !arguments.isObject()) {
					throw badRequest("'" + field + ".arguments' is required for an edit: a JSON object with the "
							+ "arguments to run the tool with");
				}
				yield ToolDecision.edit(AgentJson.mapper().writeValueAsString(arguments));
			}
			case "reject" -> {
				String reason = text(payload.get("reason"), field + ".reason");
				yield ToolDecision.reject((reason != null) ? reason : "");
			}
			default -> throw badRequest("'" + field + ".type' must be approve, edit or reject (was '" + type + "')");
		};
	}

	private static @Nullable String text(@Nullable JsonNode node, String field) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString()) {
			throw badRequest("'" + field + "' must be a string");
		}
		return node.asString();
	}

	static RuntimeException badRequest(String message) {
		return HttpFailure.exception(HttpStatus.BAD_REQUEST, "bad_request", message);
	}

	/**
	 * A message of the history the client sent.
	 *
	 * @param role {@code user} or {@code assistant}
	 * @param text its text
	 */
	record Turn(String role, String text) {

	}

}
