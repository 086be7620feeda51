package dev.agcore.autoconfigure.web.openai;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agcore.autoconfigure.web.HttpFailure;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.AgentSessions;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Handles the OpenAI-compatible routes. A request's {@code model} names an agent the
 * caller may use ({@link RequestAccess}, as on the agent endpoint); its last user message
 * is the turn's message. With a session id ({@code X-Session-Id} or {@code user}) the
 * agent continues its own stored conversation and the request's earlier messages are
 * ignored; without one the turn runs in a fresh session, deleted afterwards when the
 * application keeps {@link AgentSessions}.
 */
final class OpenAiHandler {

	private static final Log logger = LogFactory.getLog(OpenAiHandler.class);

	/** The longest system text a caller may add, as on the agent endpoint. */
	static final int MAX_INSTRUCTIONS_LENGTH = 8_000;

	private final AgentRegistry agents;

	private final RequestAccess access;

	private final @Nullable AgentSessions sessions;

	private final boolean allowInstructions;

	private final boolean exposeToolCalls;

	private final long created = System.currentTimeMillis() / 1000;

	private final JsonMapper json = AgentJson.mapper();

	OpenAiHandler(AgentRegistry agents, RequestAccess access, @Nullable AgentSessions sessions,
			boolean allowInstructions, boolean exposeToolCalls) {
		this.agents = agents;
		this.access = access;
		this.sessions = sessions;
		this.allowInstructions = allowInstructions;
		this.exposeToolCalls = exposeToolCalls;
	}

	// only the agents the caller may use
	Mono<ServerResponse> models(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			List<Map<String, Object>> models = this.agents.all()
				.stream()
				.filter((agent) -> this.access.mayUse(caller, agent.name()))
				.map((agent) -> model(agent.name()))
				.toList();
			return ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("object", "list", "data", models));
		});
	}

	private Map<String, Object> model(String name) {
		Map<String, Object> model = new LinkedHashMap<>();
		model.put("id", name);
		model.put("object", "model");
		model.put("created", this.created);
		model.put("owned_by", "agcore");
		return model;
	}

	Mono<ServerResponse> completions(ServerRequest request) {
		return this.access.caller(request)
			.flatMap((caller) -> request.bodyToMono(JsonNode.class)
				.switchIfEmpty(Mono.error(() -> OpenAiError.badRequest(null, "The request body is missing")))
				.flatMap((body) -> {
					ChatRequest chat = ChatRequest.read(body, request.headers().asHttpHeaders());
					Agent agent = agent(chat.model(), caller);
					String sessionId = (chat.sessionId() != null) ? chat.sessionId()
							: "openai-" + UUID.randomUUID();
					AgentRequest turn = AgentRequest.of(sessionId, chat.message());
					if (this.allowInstructions && chat.instructions() != null) {
						turn = turn.withInstructions(instructions(chat.instructions()));
					}
					if (caller.name() != null) {
						turn = turn.withUserId(caller.name());
					}
					Mono<Void> claimed = (chat.sessionId() != null) ? this.access.claim(sessionId, caller) : Mono.empty();
					AgentRequest agentRequest = turn;
					ChatCompletions completion = ChatCompletions.start(agent.name());
					if (chat.stream()) {
						ChatCompletionStream stream = new ChatCompletionStream(this.json, completion, chat,
								this.exposeToolCalls);
						return claimed.then(Mono.defer(() -> ServerResponse.ok()
							.contentType(MediaType.TEXT_EVENT_STREAM)
							.body(BodyInserters.fromServerSentEvents(stream.events(
									stateless(chat, sessionId, caller.name(),
											agent.stream(agentRequest).contextWrite(caller.context())),
									(ex) -> failure(ex, request))))));
					}
					Mono<ServerResponse> answer = agent.invoke(agentRequest)
						.contextWrite(caller.context())
						.flatMap((result) -> ServerResponse.ok()
							.contentType(MediaType.APPLICATION_JSON)
							.bodyValue(completion.completion(result, this.exposeToolCalls)));
					return claimed.then(Mono.defer(() -> stateless(chat, sessionId, caller.name(), answer.flux()).next()));
				}));
	}

	// a stateless turn's session is deleted when the turn ends, however it ends
	private <T> Flux<T> stateless(ChatRequest chat, String sessionId, @Nullable String userId, Flux<T> turn) {
		AgentSessions store = this.sessions;
		if (chat.sessionId() != null || store == null) {
			return turn;
		}
		Mono<Void> delete = Mono.defer(() -> store.delete(sessionId, userId))
			.onErrorResume((ex) -> {
				logger.warn("Could not delete the stateless session " + LogSafe.text(sessionId) + ": "
						+ LogSafe.text(ex.getMessage()));
				return Mono.empty();
			});
		return Flux.usingWhen(Mono.just(sessionId), (id) -> turn, (id) -> delete, (id, ex) -> delete, (id) -> delete);
	}

	private Agent agent(String model, RequestAccess.Caller caller) {
		try {
			return this.access.agent(model, caller);
		}
		catch (RuntimeException ex) {
			HttpFailure failure = HttpFailure.of(ex);
			throw new OpenAiError(HttpStatus.NOT_FOUND, "model_not_found", "model",
					(failure != null) ? failure.message() : "No agent named '" + model + "'");
		}
	}

	private String instructions(String text) {
		if (text.length() > MAX_INSTRUCTIONS_LENGTH) {
			throw OpenAiError.badRequest("messages", "The system messages must be at most "
					+ MAX_INSTRUCTIONS_LENGTH + " characters together, were " + text.length());
		}
		return text;
	}

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		OpenAiError error = failure(ex, request);
		ServerResponse.BodyBuilder response = ServerResponse.status(error.status());
		if (ex instanceof BudgetExceededException budget) {
			// when the budget lets a turn through again, in whole seconds
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(budget.retryAfter().toSeconds()));
		}
		return response.contentType(MediaType.APPLICATION_JSON).bodyValue(error.body());
	}

	// classified as on the agent endpoint; an unexpected failure's details stay in the log
	private static OpenAiError failure(Throwable ex, ServerRequest request) {
		if (ex instanceof OpenAiError error) {
			return error;
		}
		HttpFailure failure = HttpFailure.of(ex);
		if (failure == null) {
			logger.error("OpenAI-compatible request " + request.method() + " " + LogSafe.text(request.path())
					+ " failed", LogSafe.throwable(ex));
			return new OpenAiError(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", null,
					"The agent failed unexpectedly; the server log has the details");
		}
		if (failure.status().is5xxServerError()) {
			logger.warn("OpenAI-compatible request " + request.method() + " " + LogSafe.text(request.path())
					+ " failed: " + LogSafe.text(ex.getMessage()));
		}
		return OpenAiError.of(failure);
	}

}
