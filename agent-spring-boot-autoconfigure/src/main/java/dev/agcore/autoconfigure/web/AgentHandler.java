package dev.agcore.autoconfigure.web;

import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.model.ModelException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.TurnTimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

/**
 * Handles the agent endpoint's requests. Nothing here blocks: every handler returns the
 * agent's own {@code Mono} or {@code Flux}. Errors are answered as
 * {@code {"error": ..., "message": ...}} and never carry a stack trace.
 */
final class AgentHandler {

	private static final Log logger = LogFactory.getLog(AgentHandler.class);

	private static final String EXPECTED_BODY = "expected a JSON object like "
			+ "{\"sessionId\": \"...\", \"message\": \"...\"}";

	private static final String INTERNAL_ERROR = "The agent failed unexpectedly; the server log has the details";

	/** The longest system text a caller may add to a turn. */
	static final int MAX_INSTRUCTIONS_LENGTH = 8_000;

	private final AgentRegistry agents;

	private final RequestAccess access;

	private final boolean allowInstructions;

	AgentHandler(AgentRegistry agents, RequestAccess access, boolean allowInstructions) {
		this.agents = agents;
		this.access = access;
		this.allowInstructions = allowInstructions;
	}

	RequestAccess access() {
		return this.access;
	}

	// only the agents the caller may use
	Mono<ServerResponse> list(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			List<AgentViews.AgentView> views = this.agents.all()
				.stream()
				.filter((agent) -> this.access.mayUse(caller, agent.name()))
				.map(AgentViews.AgentView::of)
				.toList();
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views);
		});
	}

	// a session someone else owns is answered 404 before the turn starts
	Mono<ServerResponse> invoke(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			return agentRequest(request, agent, caller)
				.flatMap((read) -> this.access.claim(read.request().sessionId(), caller)
					.then(Mono.defer(() -> agent.invoke(read.request()).contextWrite(caller.context())))
					.flatMap((result) -> ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(AgentEventViews.ResultView.of(result, read.structured()))));
		});
	}

	Mono<ServerResponse> stream(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			return agentRequest(request, agent, caller)
				.flatMap((read) -> this.access.claim(read.request().sessionId(), caller)
					.then(Mono.defer(() -> ServerResponse.ok()
						.contentType(MediaType.TEXT_EVENT_STREAM)
						.body(BodyInserters.fromServerSentEvents(events(
								agent.stream(read.request()).contextWrite(caller.context()), request,
								read.structured()))))));
		});
	}

	Mono<ServerResponse> messages(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			String sessionId = sessionId(request.pathVariable("sessionId"));
			return this.access.read(sessionId, caller)
				.then(Mono.defer(() -> agent.history(sessionId).contextWrite(caller.context())))
				.map((messages) -> messages.stream().map(AgentViews::message).toList())
				.flatMap((views) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views));
		});
	}

	// the session's turn paused for approval, for a client that shows it again after a reload
	Mono<ServerResponse> pending(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			String sessionId = sessionId(request.pathVariable("sessionId"));
			return this.access.read(sessionId, caller)
				.then(Mono.defer(() -> agent.pendingTurn(sessionId).contextWrite(caller.context())))
				.map(PendingTurnView::of)
				.defaultIfEmpty(PendingTurnView.NONE)
				.flatMap((view) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(view));
		});
	}

	/** A paused turn: its messages so far and the calls waiting for a decision; both empty when none. */
	record PendingTurnView(List<Map<String, Object>> messages,
			List<AgentEventViews.PendingToolCallView> pendingToolCalls) {

		static final PendingTurnView NONE = new PendingTurnView(List.of(), List.of());

		static PendingTurnView of(PendingTurn turn) {
			return new PendingTurnView(turn.messages().stream().map(AgentViews::message).toList(),
					turn.pendingCalls().stream().map(AgentEventViews.PendingToolCallView::of).toList());
		}

	}

	// resume: continue a turn paused for approval, see ResumeRequests for the body
	Mono<ServerResponse> resume(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			return ResumeRequests.read(request, agent, caller)
				.flatMap((read) -> this.access.read(read.request().sessionId(), caller)
					.then(Mono.defer(() -> agent.resume(read.request()).contextWrite(caller.context())))
					.flatMap((result) -> ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(AgentEventViews.ResultView.of(result, read.structured()))));
		});
	}

	// a ResumeException arrives as an error event, as any failure of a stream does
	Mono<ServerResponse> resumeStream(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			return ResumeRequests.read(request, agent, caller)
				.flatMap((read) -> this.access.read(read.request().sessionId(), caller)
					.then(Mono.defer(() -> ServerResponse.ok()
						.contentType(MediaType.TEXT_EVENT_STREAM)
						.body(BodyInserters.fromServerSentEvents(events(
								agent.resumeStream(read.request()).contextWrite(caller.context()), request,
								read.structured()))))));
		});
	}
	// end of resume

	Mono<ServerResponse> tools(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(agent(request, caller).toolCallbacks().stream().map(ToolDescriptor::of).toList()));
	}

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		if (ex instanceof ApiException api) {
			return respond(api.status, api.error, api.getMessage());
		}
		HttpFailure failure = HttpFailure.ofTurn(ex);
		if (failure == null) {
			failure = requestFailure(ex);
		}
		if (failure == null) {
			logger.error("Agent request " + request.method() + " " + request.path() + " failed", ex);
			return respond(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", INTERNAL_ERROR);
		}
		logKnownFailure(ex, request);
		if (ex instanceof BudgetExceededException budget) {
			// when the budget lets a turn through again, in whole seconds
			return ServerResponse.status(failure.status())
				.header(HttpHeaders.RETRY_AFTER, Long.toString(budget.retryAfter().toSeconds()))
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(new AgentEventViews.ErrorView(failure.code(), failure.message()));
		}
		return respond(failure.status(), failure.code(), failure.message());
	}

	/**
	 * End the stream with an {@code error} event for what the agent reports, or for an
	 * error it signals (an application's own {@link Agent} may), as {@link #error} would
	 * answer it.
	 */
	private static Flux<ServerSentEvent<Object>> events(Flux<AgentEvent> events, ServerRequest request) {
		return events(events, request, false);
	}

	private static Flux<ServerSentEvent<Object>> events(Flux<AgentEvent> events, ServerRequest request,
			boolean structured) {
		return events.map((event) -> sanitize(event, request))
			.onErrorResume((ex) -> Mono.just(failed(ex, request)))
			.map((event) -> AgentViews.event(event, structured));
	}

	private static AgentEvent sanitize(AgentEvent event, ServerRequest request) {
		if (!(event instanceof AgentEvent.Failed failed)) {
			return event;
		}
		if (failed.cause() == null) {
			// an application's own Agent that reports no exception: nothing to classify by
			logger.error("Agent stream " + request.method() + " " + request.path() + " failed with "
					+ failed.errorType() + ": " + failed.message());
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		return failed(failed.cause(), request);
	}

	private static AgentEvent failed(Throwable ex, ServerRequest request) {
		HttpFailure failure = HttpFailure.ofTurn(ex);
		if (failure == null) {
			logger.error("Agent stream " + request.method() + " " + request.path() + " failed", ex);
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		logKnownFailure(ex, request);
		// the same code a JSON response would carry, never a class name
		return new AgentEvent.Failed(failure.code(), failure.message());
	}

	// a model's failure or the turn's deadline, without a stack trace (a timeout's would
	// show only the timer that ended the turn); the whole message, for the server log only
	// (a connection failure's address is logged where it happened, by HttpErrors)
	private static void logKnownFailure(Throwable ex, ServerRequest request) {
		if (ex instanceof ModelException) {
			logger.warn("Model call failed for " + request.method() + " " + request.path() + ": " + ex.getMessage());
		}
		else if (ex instanceof MemoryUnavailableException) {
			logger.warn("Conversation store unavailable for " + request.method() + " " + request.path() + ": "
					+ ex.getMessage());
		}
		else if (ex instanceof TurnTimeoutException) {
			logger.warn("Agent turn timed out for " + request.method() + " " + request.path() + ": " + ex.getMessage());
		}
	}

	/** Classify a failure to read the request, which only a response can report. */
	private static @Nullable HttpFailure requestFailure(Throwable ex) {
		HttpFailure failure = HttpFailure.ofRequest(ex);
		if (failure != null && ex instanceof ServerWebInputException
				&& !(ex instanceof UnsupportedMediaTypeStatusException)) {
			return new HttpFailure(failure.status(), failure.code(), "Malformed request body: " + EXPECTED_BODY);
		}
		return failure;
	}

	private Agent agent(ServerRequest request, RequestAccess.Caller caller) {
		return this.access.agent(request.pathVariable("agent"), caller);
	}

	private Mono<ReadRequest> agentRequest(ServerRequest request, Agent agent, RequestAccess.Caller caller) {
		return request.bodyToMono(AgentViews.InvokeRequest.class)
			.switchIfEmpty(Mono.error(() -> badRequest("Request body is missing: " + EXPECTED_BODY)))
			.flatMap((body) -> {
				if (body.sessionId() == null || body.sessionId().isBlank()) {
					throw badRequest("'sessionId' is required and must not be blank");
				}
				sessionId(body.sessionId());
				if (body.message() == null || body.message().isBlank()) {
					throw badRequest("'message' is required and must not be blank");
				}
				AgentRequest agentRequest = AgentRequest.of(body.sessionId(), body.message())
					.withOptions(RequestOptions.read(body::option, agent))
					.withMedia(RequestMedia.read(body.media()))
					.withInstructions(instructions(body.instructions()))
					.withLocale(RequestLocale.read(body.locale(), request.headers()));
				boolean structured = RequestOptions.structured(body::option);
				// the principal's name wins over a user id the body claims
				String userId = SessionHandler.userId(caller, body.userId());
				return Mono.just(new ReadRequest((userId != null) ? agentRequest.withUserId(userId) : agentRequest,
						structured));
			});
	}

	private @Nullable String instructions(@Nullable JsonNode instructions) {
		if (instructions == null || instructions.isNull()) {
			return null;
		}
		if (!this.allowInstructions) {
			throw badRequest("'instructions' are not accepted by this server: set agent.web.allow-instructions=true "
					+ "to let callers add system text to a turn");
		}
		if (!instructions.isString()) {
			throw badRequest("'instructions' must be a string");
		}
		String text = instructions.asString();
		if (text.length() > MAX_INSTRUCTIONS_LENGTH) {
			throw badRequest("'instructions' must be at most " + MAX_INSTRUCTIONS_LENGTH + " characters, was "
					+ text.length());
		}
		return text;
	}

	/** The same limit on every route, so an id that can be written can be read back. */
	static String sessionId(String sessionId) {
		if (sessionId.length() > AgentRequest.MAX_SESSION_ID_LENGTH) {
			throw badRequest("'sessionId' must be at most " + AgentRequest.MAX_SESSION_ID_LENGTH
					+ " characters, was " + sessionId.length());
		}
		return sessionId;
	}

	static ApiException badRequest(String message) {
		return new ApiException(HttpStatus.BAD_REQUEST, "bad_request", message);
	}

	static ApiException notFound(String message) {
		return new ApiException(HttpStatus.NOT_FOUND, "not_found", message);
	}

	private static Mono<ServerResponse> respond(HttpStatusCode status, String error, String message) {
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(new AgentEventViews.ErrorView(error, message));
	}

	/**
	 * A request read from the body, and whether its answer is JSON to show parsed.
	 */
	private record ReadRequest(AgentRequest request, boolean structured) {

	}

	/**
	 * A failure with a known status and a message meant for the caller.
	 */
	static final class ApiException extends RuntimeException {

		private final HttpStatus status;

		private final String error;

		ApiException(HttpStatus status, String error, String message) {
			// an expected outcome, not a bug: no stack trace to fill
			super(message, null, false, false);
			this.status = status;
			this.error = error;
		}

		HttpStatus status() {
			return this.status;
		}

		String error() {
			return this.error;
		}

	}

}
