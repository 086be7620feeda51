package dev.agcore.autoconfigure.web;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.agcore.json.AgentJson;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

/**
 * Reads the body of a resume request,
 * {@code {"decisions": {"<call id>": {"type": "approve" | "edit" | "reject", ...}}}}, into
 * a {@link ResumeRequest}. {@code {"decisions": {}}} resumes a turn that waits for no
 * decision (its decided calls ran before a resumption failed). A malformed body is a bad
 * request naming the field; whether the decisions match the paused turn is for the agent
 * to say.
 */
final class ResumeRequests {

	static final String EXPECTED_BODY = "expected a JSON object like {\"decisions\": {\"<tool call id>\": "
			+ "{\"type\": \"approve\"}}}; a decision is {\"type\": \"approve\"}, "
			+ "{\"type\": \"edit\", \"arguments\": {...}} or {\"type\": \"reject\", \"reason\": \"...\"}";

	private static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {
	};

	private ResumeRequests() {
	}

	/**
	 * Read the body: the decisions, the optional user id, and the optional model options
	 * of an invoke request ({@link RequestOptions}).
	 * @param request the request
	 * @param agent the agent whose turn is resumed
	 * @param caller the caller, whose principal's name wins over a user id the body claims
	 * @return the resume request, and whether its answer is JSON to show parsed
	 */
	static Mono<Read> read(ServerRequest request, Agent agent, RequestAccess.Caller caller) {
		String sessionId = AgentHandler.sessionId(request.pathVariable("sessionId"));
		return request.bodyToMono(JSON_OBJECT)
			.onErrorMap(ServerWebInputException.class, (ex) -> badRequest("Malformed request body: " + EXPECTED_BODY))
			.switchIfEmpty(Mono.error(() -> badRequest("Request body is missing: " + EXPECTED_BODY)))
			.flatMap((body) -> {
				ResumeRequest resume = ResumeRequest.of(sessionId, decisions(body.get("decisions")));
				Object userId = body.get("userId");
				if (userId != null && !(userId instanceof String)) {
					throw badRequest("'userId' must be a string");
				}
				JsonNode tree = AgentJson.mapper().valueToTree(body);
				Function<String, @Nullable JsonNode> options = tree::get;
				ResumeRequest withOptions = resume.withOptions(RequestOptions.read(options, agent));
				boolean structured = RequestOptions.structured(options);
				// as for invoke: the principal's name, else the optional "userId" field
				String user = SessionHandler.userId(caller, (String) userId);
				return Mono.just(new Read((user != null) ? withOptions.withUserId(user) : withOptions, structured));
			});
	}

	static Map<String, ToolDecision> decisions(@Nullable Object value) {
		// empty for a turn whose decided calls ran before its resumption failed: it just goes on
		if (!(value instanceof Map<?, ?> map)) {
			throw badRequest("'decisions' is required: an object with a decision for each pending tool call id "
					+ "({} when none waits); " + EXPECTED_BODY);
		}
		Map<String, ToolDecision> decisions = new LinkedHashMap<>();
		map.forEach((id, decision) -> decisions.put(String.valueOf(id), decision(String.valueOf(id), decision)));
		return decisions;
	}

	private static ToolDecision decision(String id, Object value) {
		String field = "'decisions." + id;
		if (!(value instanceof Map<?, ?> decision)) {
			throw badRequest(field + "' must be an object such as {\"type\": \"approve\"}");
		}
		Object type = decision.get("type");
		if (!(type instanceof String name) || name.isBlank()) {
			throw badRequest(field + ".type' is required: approve, edit or reject");
		}
		return switch (name.strip().toLowerCase(Locale.ROOT)) {
			case "approve" -> ToolDecision.approve();
			case "edit" -> {
				if (!(decision.get("arguments") instanceof Map<?, ?> arguments)) {
					throw badRequest(field + ".arguments' is required for an edit: a JSON object with the "
							+ "arguments to run the tool with");
				}
				yield ToolDecision.edit(AgentJson.mapper().writeValueAsString(arguments));
			}
			case "reject" -> {
				Object reason = decision.get("reason");
				if (reason != null && !(reason instanceof String)) {
					throw badRequest(field + ".reason' must be a string");
				}
				yield ToolDecision.reject((reason != null) ? (String) reason : "");
			}
			default -> throw badRequest(field + ".type' must be approve, edit or reject (was '" + name + "')");
		};
	}

	/**
	 * A resume request read from the body, and whether its answer is JSON to show parsed.
	 */
	record Read(ResumeRequest request, boolean structured) {

	}

	private static ResponseStatusException badRequest(String message) {
		return new ResponseStatusException(HttpStatus.BAD_REQUEST, message);
	}

}
