package dev.agcore.autoconfigure.web;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.ResumeException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
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

	// failures whose message is meant for the caller; the stream reports them by type name only
	private static final Set<String> SAFE_ERRORS = Stream
		.of(ModelException.class, ModelAuthenticationException.class, ModelConnectionException.class,
				ModelRateLimitException.class, ModelRequestException.class, ContextLengthExceededException.class,
				ModelResponseException.class, ModelServerException.class, ModelTimeoutException.class,
				ResumeException.class)
		.map(Class::getSimpleName)
		.collect(Collectors.toUnmodifiableSet());

	private final AgentRegistry agents;

	AgentHandler(AgentRegistry agents) {
		this.agents = agents;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		List<AgentViews.AgentView> views = this.agents.all().stream().map(AgentViews.AgentView::of).toList();
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views);
	}

	Mono<ServerResponse> invoke(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return agentRequest(request).flatMap(agent::invoke)
				.flatMap((result) -> ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(AgentViews.ResultView.of(result)));
		});
	}

	Mono<ServerResponse> stream(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return agentRequest(request).flatMap((agentRequest) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(BodyInserters.fromServerSentEvents(
						agent.stream(agentRequest).map((event) -> AgentViews.event(sanitize(event, request))))));
		});
	}

	Mono<ServerResponse> messages(ServerRequest request) {
		return Mono.defer(() -> agent(request).history(request.pathVariable("sessionId"))
			.map((messages) -> messages.stream().map(AgentViews::message).toList())
			.flatMap((views) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views)));
	}

	// resume: continue a turn paused for approval, see ResumeRequests for the body
	Mono<ServerResponse> resume(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return ResumeRequests.read(request)
				.flatMap(agent::resume)
				.flatMap((result) -> ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(AgentViews.ResultView.of(result)));
		});
	}

	// a ResumeException arrives as an error event, as any failure of a stream does
	Mono<ServerResponse> resumeStream(ServerRequest request) {
		return Mono.defer(() -> {
			Agent agent = agent(request);
			return ResumeRequests.read(request).flatMap((resumeRequest) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(BodyInserters.fromServerSentEvents(agent.resumeStream(resumeRequest)
					.map((event) -> AgentViews.event(sanitize(event, request))))));
		});
	}
	// end of resume

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		if (ex instanceof ApiException api) {
			return respond(api.status, api.error, api.getMessage());
		}
		if (ex instanceof ModelException model) {
			// the provider's own words help the caller; they hold no server internals
			String message = (model.getMessage() != null) ? model.getMessage() : model.provider() + " failed";
			logger.warn("Model call failed for " + request.method() + " " + request.path() + ": " + message);
			return respond(HttpStatus.BAD_GATEWAY, "model_error", message);
		}
		if (ex instanceof ResumeException) {
			// e.g. a turn of this session waits for approval
			return respond(HttpStatus.CONFLICT, "conflict", ex.getMessage());
		}
		if (ex instanceof UnsupportedMediaTypeStatusException) {
			return respond(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
					"Content-Type must be application/json");
		}
		if (ex instanceof ServerWebInputException) {
			return respond(HttpStatus.BAD_REQUEST, "bad_request", "Malformed request body: " + EXPECTED_BODY);
		}
		if (ex instanceof ResponseStatusException status && status.getStatusCode().is4xxClientError()) {
			return respond(status.getStatusCode(), "bad_request",
					(status.getReason() != null) ? status.getReason() : "Bad request");
		}
		logger.error("Agent request " + request.method() + " " + request.path() + " failed", ex);
		return respond(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", INTERNAL_ERROR);
	}

	// as in error(): no internals in a response
	private static AgentEvent sanitize(AgentEvent event, ServerRequest request) {
		if (event instanceof AgentEvent.Failed failed && !SAFE_ERRORS.contains(failed.errorType())) {
			logger.error("Agent stream " + request.method() + " " + request.path() + " failed with "
					+ failed.errorType() + ": " + failed.message());
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		return event;
	}

	private Agent agent(ServerRequest request) {
		String name = request.pathVariable("agent");
		return this.agents.find(name)
			.orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "not_found",
					"No agent named '" + name + "'; known agents: "
							+ this.agents.all().stream().map(Agent::name).toList()));
	}

	private static Mono<AgentRequest> agentRequest(ServerRequest request) {
		return request.bodyToMono(AgentViews.InvokeRequest.class)
			.switchIfEmpty(Mono.error(() -> badRequest("Request body is missing: " + EXPECTED_BODY)))
			.map((body) -> {
				if (body.sessionId() == null || body.sessionId().isBlank()) {
					throw badRequest("'sessionId' is required and must not be blank");
				}
				if (body.message() == null || body.message().isBlank()) {
					throw badRequest("'message' is required and must not be blank");
				}
				return AgentRequest.of(body.sessionId(), body.message());
			});
	}

	private static ApiException badRequest(String message) {
		return new ApiException(HttpStatus.BAD_REQUEST, "bad_request", message);
	}

	private static Mono<ServerResponse> respond(HttpStatusCode status, String error, String message) {
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(new AgentViews.ErrorView(error, message));
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
