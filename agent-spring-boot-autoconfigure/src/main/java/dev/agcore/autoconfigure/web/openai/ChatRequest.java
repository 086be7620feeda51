package dev.agcore.autoconfigure.web.openai;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.runtime.AgentRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;

/**
 * What a Chat Completions request asks of an agent: the agent ({@code model}), the turn's
 * message (the last user message), the session, if any, and the system text.
 *
 * @param model the agent's name
 * @param message the text of the last user message
 * @param sessionId the session from {@code X-Session-Id} or {@code user}; {@code null}
 * for a stateless turn
 * @param instructions the system and developer messages, joined; {@code null} for none
 * @param stream whether to answer with a stream of chunks
 * @param includeUsage whether a stream ends with a usage chunk
 */
record ChatRequest(String model, String message, @Nullable String sessionId, @Nullable String instructions,
		boolean stream, boolean includeUsage) {

	/** The header naming the session whose stored conversation the turn continues. */
	static final String SESSION_HEADER = "X-Session-Id";

	/**
	 * Read a request body.
	 * @param body the JSON body
	 * @param headers the request's headers, for the session
	 * @return the request
	 * @throws OpenAiError 400 naming what is wrong
	 */
	static ChatRequest read(JsonNode body, HttpHeaders headers) {
		if (!body.isObject()) {
			throw OpenAiError.badRequest(null, "The request body must be a JSON object");
		}
		String model = text(body.get("model"));
		if (model == null || model.isBlank()) {
			throw OpenAiError.badRequest("model", "'model' is required: the name of an agent (see GET /v1/models)");
		}
		JsonNode messages = body.get("messages");
		if (messages == null || !messages.isArray() || messages.isEmpty()) {
			throw OpenAiError.badRequest("messages", "'messages' is required and must be a non-empty array");
		}
		String message = null;
		List<String> system = new ArrayList<>();
		for (int i = 0; i < messages.size(); i++) {
			JsonNode each = messages.get(i);
			String role = text(each.get("role"));
			if ("user".equals(role)) {
				message = content(each.get("content"), i);
			}
			else if ("system".equals(role) || "developer".equals(role)) {
				system.add(content(each.get("content"), i));
			}
		}
		if (message == null || message.isBlank()) {
			throw OpenAiError.badRequest("messages", "'messages' must hold a user message with text");
		}
		JsonNode options = body.get("stream_options");
		boolean includeUsage = options != null && options.isObject() && options.path("include_usage").asBoolean(false);
		return new ChatRequest(model, message, sessionId(headers.getFirst(SESSION_HEADER), text(body.get("user"))),
				system.isEmpty() ? null : String.join("\n\n", system), body.path("stream").asBoolean(false),
				includeUsage);
	}

	// a string, or the text parts of an array of parts; an image or audio part is refused
	private static String content(@Nullable JsonNode content, int index) {
		if (content != null && content.isString()) {
			return content.asString();
		}
		if (content != null && content.isArray()) {
			StringBuilder text = new StringBuilder();
			for (int i = 0; i < content.size(); i++) {
				JsonNode part = content.get(i);
				if (!"text".equals(text(part.get("type")))) {
					throw OpenAiError.badRequest("messages[" + index + "].content",
							"Only text content is supported, not '" + text(part.get("type")) + "'");
				}
				text.append(part.path("text").asString(""));
			}
			return text.toString();
		}
		throw OpenAiError.badRequest("messages[" + index + "].content",
				"A message's 'content' must be a string or an array of text parts");
	}

	private static @Nullable String sessionId(@Nullable String header, @Nullable String user) {
		String id = (header != null && !header.isBlank()) ? header : user;
		if (id == null || id.isBlank()) {
			return null;
		}
		if (id.length() > AgentRequest.MAX_SESSION_ID_LENGTH) {
			throw OpenAiError.badRequest("user",
					"The session id must be at most " + AgentRequest.MAX_SESSION_ID_LENGTH + " characters");
		}
		return id;
	}

	private static @Nullable String text(@Nullable JsonNode node) {
		return (node != null && node.isString()) ? node.asString() : null;
	}

}
