package dev.agcore.autoconfigure.web;

import java.util.List;

import dev.agcore.autoconfigure.tool.ToolDescriptor;
import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.model.ModelException;
import dev.agcore.plan.PlanParseException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.ModelNotAllowedException;
import dev.agcore.runtime.StructuredOutputException;
import dev.agcore.runtime.TurnFailure;
import dev.agcore.runtime.TurnTimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
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

	private final boolean allowInstructions;

	AgentHandler(AgentRegistry agents, boolean allowInstructions) {
		this.agents = agents;
		this.allowInstructions = allowInstructions;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		List<AgentViews.AgentView> views = this.agents.all().stream().map(AgentViews.AgentView::of).toList();
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views);
	}

	Mono<ServerResponse> invoke(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return agentRequest(request, agent).flatMap((read) -> agent.invoke(read.request())
				.flatMap((result) -> ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(AgentEventViews.ResultView.of(result, read.structured()))));
		});
	}

	Mono<ServerResponse> stream(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return agentRequest(request, agent).flatMap((read) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(BodyInserters
					.fromServerSentEvents(events(agent.stream(read.request()), request, read.structured()))));
		});
	}

	Mono<ServerResponse> messages(ServerRequest request) {
		return Mono.defer(() -> agent(request).history(sessionId(request.pathVariable("sessionId")))
			.map((messages) -> messages.stream().map(AgentViews::message).toList())
			.flatMap((views) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views)));
	}

	// resume: continue a turn paused for approval, see ResumeRequests for the body
	Mono<ServerResponse> resume(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return ResumeRequests.read(request, agent)
				.flatMap((read) -> agent.resume(read.request())
					.flatMap((result) -> ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(AgentEventViews.ResultView.of(result, read.structured()))));
		});
	}

	// a ResumeException arrives as an error event, as any failure of a stream does
	Mono<ServerResponse> resumeStream(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return ResumeRequests.read(request, agent).flatMap((read) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(BodyInserters.fromServerSentEvents(
						events(agent.resumeStream(read.request()), request, read.structured()))));
		});
	}
	// end of resume

	Mono<ServerResponse> tools(ServerRequest request) {
		return Mono.defer(() -> ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(agent(request).toolCallbacks().stream().map(ToolDescriptor::of).toList()));
	}

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		if (ex instanceof ApiException api) {
			return respond(api.status, api.error, api.getMessage());
		}
		Failure failure = turnFailure(ex);
		if (failure == null) {
			failure = requestFailure(ex);
		}
		if (failure == null) {
			logger.error("Agent request " + request.method() + " " + request.path() + " failed", ex);
			return respond(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", INTERNAL_ERROR);
		}
		logKnownFailure(ex, request);
		return respond(failure.status(), failure.error(), failure.message());
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
		Failure failure = turnFailure(ex);
		if (failure == null) {
			logger.error("Agent stream " + request.method() + " " + request.path() + " failed", ex);
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		logKnownFailure(ex, request);
		return new AgentEvent.Failed(ex.getClass().getSimpleName(), failure.message());
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

	/**
	 * Classify a failure of a turn, the same for a response and for a stream's
	 * {@code error} event.
	 * @param ex what the turn failed with
	 * @return how to report it, or {@code null} for an unexpected failure, whose details
	 * stay in the server log
	 */
	private static @Nullable Failure turnFailure(Throwable ex) {
		TurnFailure failure = TurnFailure.of(ex);
		return (failure != null) ? new Failure(status(failure.code()), failure.code(), failure.message()) : null;
	}

	private static HttpStatus status(String code) {
		return switch (code) {
			// the request asks what this model cannot do (an audio file, a PDF by URL), the
			// caller's to change; so do content refused and an invalid structured answer
			case TurnFailure.UNSUPPORTED_REQUEST, TurnFailure.UNPROCESSABLE, StructuredOutputException.CODE ->
				HttpStatus.UNPROCESSABLE_CONTENT;
			// like a gateway whose upstream (the model, a tool) did not answer in time
			case TurnFailure.TURN_TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
			// e.g. a turn of this session waits for approval; or sending again works
			case TurnFailure.CONFLICT, TurnFailure.CONVERSATION_CONFLICT -> HttpStatus.CONFLICT;
			case TurnFailure.MEMORY_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
			// the request named a model the agent does not allow
			case ModelNotAllowedException.CODE -> HttpStatus.BAD_REQUEST;
			case TurnFailure.LIMIT_EXCEEDED -> HttpStatus.TOO_MANY_REQUESTS;
			// the model's answer: a plan that could not be read
			case TurnFailure.MODEL_ERROR, PlanParseException.CODE -> HttpStatus.BAD_GATEWAY;
			default -> HttpStatus.INTERNAL_SERVER_ERROR;
		};
	}

	/** Classify a failure to read the request, which only a response can report. */
	private static @Nullable Failure requestFailure(Throwable ex) {
		// the codecs' max-in-memory-size
		if (ex instanceof DataBufferLimitException) {
			return new Failure(HttpStatus.CONTENT_TOO_LARGE, "content_too_large", "Request body is too large");
		}
		if (ex instanceof UnsupportedMediaTypeStatusException) {
			return new Failure(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
					"Content-Type must be application/json");
		}
		if (ex instanceof ServerWebInputException) {
			return new Failure(HttpStatus.BAD_REQUEST, "bad_request", "Malformed request body: " + EXPECTED_BODY);
		}
		if (ex instanceof ResponseStatusException status && status.getStatusCode().is4xxClientError()) {
			return new Failure(status.getStatusCode(), "bad_request",
					(status.getReason() != null) ? status.getReason() : "Bad request");
		}
		return null;
	}

	private Agent agent(ServerRequest request) {
		String name = request.pathVariable("agent");
		return this.agents.find(name)
			.orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "not_found",
					"No agent named '" + name + "'; known agents: "
							+ this.agents.all().stream().map(Agent::name).toList()));
	}

	private Mono<ReadRequest> agentRequest(ServerRequest request, Agent agent) {
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
				return SessionHandler.userId(request, body.userId())
					.map(agentRequest::withUserId)
					.defaultIfEmpty(agentRequest)
					.map((read) -> new ReadRequest(read, structured));
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
	 * How a failure is reported to the caller.
	 */
	private record Failure(HttpStatusCode status, String error, String message) {

	}

	/**
	 * A failure with a known status and a message meant for the caller.
	 */
	private static final class ApiException extends RuntimeException {

		private final HttpStatus status;

		private final String error;

		ApiException(HttpStatus status, String error, String message) {
			// an expected outcome, not a bug: no stack trace to fill
			super(message, null, false, false);
			this.status = status;
			this.error = error;
		}

	}

}
