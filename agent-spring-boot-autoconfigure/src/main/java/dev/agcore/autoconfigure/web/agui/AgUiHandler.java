package dev.agcore.autoconfigure.web.agui;

import java.util.Map;

import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.autoconfigure.web.HttpFailure;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.json.AgentJson;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.ResumeRequest;
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
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Handles {@code POST {base-path}/{agent}/ag-ui}: an AG-UI {@code RunAgentInput} runs a
 * turn of the agent in the session named by its {@code threadId}, streamed back as AG-UI
 * events. The caller, the agent's roles and the session's owner are those of the agent
 * endpoint ({@link RequestAccess}): a thread someone else owns is answered 404 before the
 * stream starts, as on the agent endpoint. A failure before the stream is a JSON error
 * ({@code {"error", "message"}}); one during it a {@code RUN_ERROR} with the same code.
 * Closing the connection cancels the turn.
 */
final class AgUiHandler {

	private static final Log logger = LogFactory.getLog(AgUiHandler.class);

	private static final String INTERNAL_ERROR = "The agent failed unexpectedly; the server log has the details";

	/** The longest system text the client's context may add, as on the agent endpoint. */
	static final int MAX_INSTRUCTIONS_LENGTH = 8_000;

	private final RequestAccess access;

	private final boolean allowInstructions;

	private final JsonMapper json = AgentJson.mapper();

	AgUiHandler(RequestAccess access, boolean allowInstructions) {
		this.access = access;
		this.allowInstructions = allowInstructions;
	}

	Mono<ServerResponse> run(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = this.access.agent(request.pathVariable("agent"), caller);
			return request.bodyToMono(JsonNode.class)
				.switchIfEmpty(Mono.error(() -> AgUiInput
					.badRequest("The request body is missing: " + AgUiInput.EXPECTED_BODY)))
				.flatMap((body) -> {
					AgUiInput input = AgUiInput.read(body);
					String threadId = input.threadId();
					String instructions = instructions(input);
					Mono<Flux<AgentEvent>> events;
					if (input.decisions() != null) {
						ResumeRequest resume = ResumeRequest.of(threadId, input.decisions()).withUserId(caller.name());
						events = Mono.fromSupplier(() -> agent.resumeStream(resume));
					}
					else {
						// the thread's history: the agent's own when it has one, else what the client sent
						events = agent.history(threadId).contextWrite(caller.context()).map((history) -> {
							AgentRequest turn = AgentRequest.of(threadId, input.turnMessage(!history.isEmpty()))
								.withUserId(caller.name())
								.withInstructions(instructions);
							return agent.stream(turn);
						});
					}
					return this.access.claim(threadId, caller)
						.then(events)
						.flatMap((turn) -> ServerResponse.ok()
							.contentType(MediaType.TEXT_EVENT_STREAM)
							.body(BodyInserters.fromServerSentEvents(
									encode(input, turn.contextWrite(caller.context()), request))));
				});
		});
	}

	// the client's context is system text: only where the application lets callers add it
	private @Nullable String instructions(AgUiInput input) {
		String context = input.contextText();
		if (context == null || !this.allowInstructions) {
			return null;
		}
		if (context.length() > MAX_INSTRUCTIONS_LENGTH) {
			throw AgUiInput.badRequest("'context' must be at most " + MAX_INSTRUCTIONS_LENGTH
					+ " characters together, was " + context.length());
		}
		return context;
	}

	private Flux<ServerSentEvent<String>> encode(AgUiInput input, Flux<AgentEvent> events, ServerRequest request) {
		AgUiEvents encoder = AgUiEvents.of(input.threadId(), input.runId(), input.state());
		Flux<Map<String, Object>> mapped = events.map((event) -> sanitize(event, request))
			.concatMapIterable(encoder::next)
			.onErrorResume((ex) -> {
				AgentEvent.Failed failed = failed(ex, request);
				return Flux.fromIterable(encoder.error(failed.errorType(), failed.message()));
			});
		return Flux.concat(Flux.fromIterable(encoder.started()), mapped)
			.map((event) -> ServerSentEvent.builder(this.json.writeValueAsString(event)).build());
	}

	// a sub-agent's failure too: its type is the exception's class name, its message the exception's
	private static AgentEvent sanitize(AgentEvent event, ServerRequest request) {
		if (event instanceof AgentEvent.SubAgentEvent nested) {
			AgentEvent inner = sanitize(nested.event(), request);
			return (inner == nested.event()) ? event
					: new AgentEvent.SubAgentEvent(nested.toolCallId(), nested.agent(), inner);
		}
		if (!(event instanceof AgentEvent.Failed failed)) {
			return event;
		}
		if (failed.cause() == null) {
			// an application's own Agent that reports no exception: nothing to classify by
			logger.error("AG-UI run " + request.path() + " failed with " + failed.errorType() + ": "
					+ failed.message());
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		return failed(failed.cause(), request);
	}

	// the code a JSON response would carry, never a class name or a stack trace
	private static AgentEvent.Failed failed(Throwable ex, ServerRequest request) {
		HttpFailure failure = HttpFailure.ofTurn(ex);
		if (failure == null) {
			logger.error("AG-UI run " + request.path() + " failed", ex);
			return new AgentEvent.Failed("internal_error", INTERNAL_ERROR);
		}
		if (failure.status().is5xxServerError()) {
			logger.warn("AG-UI run " + request.path() + " failed: " + ex.getMessage());
		}
		return new AgentEvent.Failed(failure.code(), failure.message());
	}

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		HttpFailure failure = HttpFailure.of(ex);
		if (failure == null) {
			logger.error("AG-UI request " + request.method() + " " + request.path() + " failed", ex);
			failure = new HttpFailure(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", INTERNAL_ERROR);
		}
		ServerResponse.BodyBuilder response = ServerResponse.status(failure.status());
		if (ex instanceof BudgetExceededException budget) {
			// when the budget lets a turn through again, in whole seconds
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(budget.retryAfter().toSeconds()));
		}
		return response.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(new AgentEventViews.ErrorView(failure.code(), failure.message()));
	}

}
