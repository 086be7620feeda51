package dev.agcore.autoconfigure.web;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.agcore.autoconfigure.run.AgentRunExecutor;
import dev.agcore.autoconfigure.run.RunTargetNotFoundException;
import dev.agcore.autoconfigure.run.Runs;
import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.run.IdempotencyConflictException;
import dev.agcore.run.Run;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunNotFoundException;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStateException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebInputException;

/**
 * Handles the routes of background runs, for agents ({@code /{agent}/runs}) and
 * workflows ({@code /{workflow}/runs} under the workflows path): submit (202 with the run
 * and its {@code Location}), list a session's runs, get one, stream its events as
 * server-sent events whose {@code id} is the event's sequence (resumable with
 * {@code Last-Event-ID}), cancel and resume.
 */
final class RunHandler {

	static final String WORKFLOW = "workflow";

	private static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {
	};

	private final Runs runs;

	private final AgentRegistry agents;

	private final AgentHandler agentHandler;

	private final boolean allowInstructions;

	private final RequestAccess access;

	RunHandler(Runs runs, AgentRegistry agents, AgentHandler agentHandler, boolean allowInstructions) {
		this.runs = runs;
		this.agents = agents;
		this.agentHandler = agentHandler;
		this.allowInstructions = allowInstructions;
		this.access = agentHandler.access();
	}

	Mono<ServerResponse> submitAgentRun(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			String name = target(request, AgentRunExecutor.KIND, "agent", caller);
			return body(request).flatMap((body) -> {
				String sessionId = requiredText(body, "sessionId");
				AgentHandler.sessionId(sessionId);
				String message = requiredText(body, "message");
				ObjectNode input = AgentJson.mapper().createObjectNode();
				input.put("message", message);
				// validated as invoke validates them, stored for the executor
				RequestOptions.read(body::get, this.agents.find(name).orElseThrow());
				ObjectNode options = input.putObject("options");
				for (String field : RequestOptions.FIELDS) {
					JsonNode value = body.get(field);
					if (value != null && !value.isNull()) {
						options.set(field, value);
					}
				}
				JsonNode instructions = body.get("instructions");
				if (instructions != null && !instructions.isNull()) {
					if (!this.allowInstructions) {
						throw AgentHandler.badRequest("'instructions' are not accepted by this server: set "
								+ "agent.web.allow-instructions=true to let callers add system text to a turn");
					}
					if (!instructions.isString() || instructions.asString().length() > AgentHandler.MAX_INSTRUCTIONS_LENGTH) {
						throw AgentHandler.badRequest("'instructions' must be a string of at most "
								+ AgentHandler.MAX_INSTRUCTIONS_LENGTH + " characters");
					}
					input.set("instructions", instructions);
				}
				return submit(request, caller, AgentRunExecutor.KIND, name, sessionId, input, body);
			});
		});
	}

	Mono<ServerResponse> submitWorkflowRun(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			String name = target(request, WORKFLOW, "workflow", caller);
			return body(request).flatMap((body) -> {
				JsonNode given = body.get("sessionId");
				boolean noSession = given == null || given.isNull();
				if (noSession && caller.name() == null && idempotencyKey(body) != null) {
					// an anonymous caller's key is scoped to its session: a new session would never find it again
					throw AgentHandler.badRequest("'sessionId' is required with an 'idempotencyKey' when the caller "
							+ "is not authenticated: the key is kept per session");
				}
				String sessionId = noSession ? UUID.randomUUID().toString() : requiredText(body, "sessionId");
				AgentHandler.sessionId(sessionId);
				JsonNode input = body.get("input");
				return submit(request, caller, WORKFLOW, name, sessionId,
						(input != null) ? input : AgentJson.mapper().nullNode(), body);
			});
		});
	}

	// the session is claimed as invoke claims it: a run in someone else's session is 404
	private Mono<ServerResponse> submit(ServerRequest request, RequestAccess.Caller caller, String kind, String target,
			String sessionId, JsonNode input, JsonNode body) {
		RunRequest run = RunRequest.of(kind, target, sessionId, input)
			.withNotBefore(notBefore(body))
			.withDeadline(duration(body, "deadline"))
			.withIdempotencyKey(idempotencyKey(body));
		JsonNode userId = body.get("userId");
		if (userId != null && !userId.isNull() && !userId.isString()) {
			throw AgentHandler.badRequest("'userId' must be a string");
		}
		String user = SessionHandler.userId(caller, (userId != null && userId.isString()) ? userId.asString() : null);
		RunRequest submitted = (user != null) ? run.withUserId(user) : run;
		// the key is the caller's own (or the session's): another user's key finds nothing
		RunIdempotency idempotency = RunIdempotency.of(submitted, caller.name(), fingerprint(body));
		return this.access.claim(sessionId, caller)
			.then(Mono.defer(() -> this.runs.submit(submitted, idempotency)))
			.flatMap((queued) -> ServerResponse.accepted()
				.location(URI.create(request.path() + "/" + queued.id()))
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(RunView.of(queued)));
	}

	Mono<ServerResponse> list(ServerRequest request, String kind) {
		return this.access.caller(request).flatMap((caller) -> {
			String name = target(request, kind, kind, caller);
			String sessionId = request.queryParam("sessionId").filter((id) -> !id.isBlank()).orElse(null);
			if (sessionId == null) {
				throw AgentHandler.badRequest("'sessionId' is required as a query parameter");
			}
			int offset = intParam(request, "offset", 0);
			int limit = intParam(request, "limit", SessionHandler.DEFAULT_LIMIT);
			if (offset < 0 || limit < 1 || limit > 100) {
				throw AgentHandler.badRequest("'offset' must not be negative and 'limit' must be between 1 and 100");
			}
			// the session's runs of this agent or workflow only
			return this.access.read(AgentHandler.sessionId(sessionId), caller)
				.thenMany(Flux.defer(() -> this.runs.list(sessionId, 0, offset + limit)))
				.filter((run) -> run.kind().equals(kind) && run.target().equals(name))
				.skip(offset)
				.take(limit)
				.map(RunView::of)
				.collectList()
				.flatMap((views) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(views));
		});
	}

	Mono<ServerResponse> get(ServerRequest request, String kind) {
		return run(request, kind).flatMap(
				(run) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(RunView.of(run)));
	}

	Mono<ServerResponse> events(ServerRequest request, String kind) {
		return run(request, kind).flatMap((run) -> {
			long after = after(request);
			return ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.body(BodyInserters.fromServerSentEvents(this.runs.events(run.id(), after)
					.map((event) -> ServerSentEvent.<Object>builder(event.data())
						.id(String.valueOf(event.sequence()))
						.event(event.type())
						.build())));
		});
	}

	Mono<ServerResponse> cancel(ServerRequest request, String kind) {
		return run(request, kind).flatMap((run) -> this.runs.cancel(run.id()))
			.flatMap((run) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(RunView.of(run)));
	}

	Mono<ServerResponse> resume(ServerRequest request, String kind) {
		return run(request, kind).flatMap((run) -> request.bodyToMono(JSON_OBJECT)
			.onErrorMap(ServerWebInputException.class, (ex) -> AgentHandler.badRequest("Malformed request body"))
			.switchIfEmpty(Mono.error(() -> AgentHandler.badRequest("Request body is missing")))
			.flatMap((body) -> {
				JsonNode resume;
				if (kind.equals(AgentRunExecutor.KIND)) {
					// checked now, so a bad decision is the caller's 400, not a failed run
					ResumeRequests.decisions(body.get("decisions"));
					ObjectNode decisions = AgentJson.mapper().createObjectNode();
					decisions.set("decisions", AgentJson.mapper().valueToTree(body.get("decisions")));
					resume = decisions;
				}
				else {
					if (!body.containsKey("resume")) {
						throw AgentHandler.badRequest("'resume' is required: the answer to the workflow's interrupt");
					}
					resume = AgentJson.mapper().valueToTree(body.get("resume"));
				}
				return this.runs.resume(run.id(), resume);
			}))
			.flatMap((run) -> ServerResponse.accepted().contentType(MediaType.APPLICATION_JSON).bodyValue(RunView.of(run)));
	}

	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		if (ex instanceof RunNotFoundException || ex instanceof RunTargetNotFoundException) {
			return respond(HttpStatus.NOT_FOUND, "not_found", ex.getMessage());
		}
		if (ex instanceof IdempotencyConflictException) {
			return respond(HttpStatus.CONFLICT, IdempotencyConflictException.CODE, ex.getMessage());
		}
		if (ex instanceof RunStateException) {
			return respond(HttpStatus.CONFLICT, RunStateException.CODE, ex.getMessage());
		}
		if (ex instanceof MemoryUnavailableException) {
			return respond(HttpStatus.SERVICE_UNAVAILABLE, "memory_unavailable",
					"The run store is unavailable; try again later");
		}
		if (ex instanceof IllegalArgumentException) {
			// a RunRequest refusing a value: its message names the field
			return respond(HttpStatus.BAD_REQUEST, "bad_request", ex.getMessage());
		}
		return this.agentHandler.error(ex, request);
	}

	private Mono<Run> run(ServerRequest request, String kind) {
		return this.access.caller(request).flatMap((caller) -> {
			String name = target(request, kind, kind, caller);
			String runId = request.pathVariable("runId");
			// a run of another agent or workflow is not found here, nor one in someone else's session
			return this.runs.get(runId)
				.filter((run) -> run.kind().equals(kind) && run.target().equals(name))
				.filterWhen((run) -> this.access.read(run.sessionId(), caller)
					.thenReturn(true)
					.onErrorReturn(AgentHandler.ApiException.class, false))
				.switchIfEmpty(Mono.error(() -> new RunNotFoundException(runId)));
		});
	}

	// an agent whose roles the caller lacks is not found, as on the agent routes
	private String target(ServerRequest request, String kind, String variable, RequestAccess.Caller caller) {
		String name = request.pathVariable(variable);
		this.runs.checkTarget(kind, name);
		if (kind.equals(AgentRunExecutor.KIND)) {
			this.access.agent(name, caller);
		}
		return name;
	}

	private static Mono<JsonNode> body(ServerRequest request) {
		return request.bodyToMono(JsonNode.class)
			.switchIfEmpty(Mono.error(() -> AgentHandler.badRequest("Request body is missing")))
			.map((body) -> {
				if (!body.isObject()) {
					throw AgentHandler.badRequest("The request body must be a JSON object");
				}
				return body;
			});
	}

	private static String requiredText(JsonNode body, String field) {
		JsonNode value = body.get(field);
		if (value == null || !value.isString() || value.asString().isBlank()) {
			throw AgentHandler.badRequest("'" + field + "' is required and must not be blank");
		}
		return value.asString();
	}

	private static @Nullable Instant notBefore(JsonNode body) {
		JsonNode runAt = body.get("runAt");
		Duration delay = duration(body, "delay");
		if (runAt != null && !runAt.isNull()) {
			if (delay != null) {
				throw AgentHandler.badRequest("'runAt' and 'delay' exclude each other");
			}
			try {
				return Instant.parse(runAt.asString());
			}
			catch (DateTimeParseException ex) {
				throw AgentHandler.badRequest("'runAt' must be an ISO-8601 instant such as 2026-11-26T10:00:00Z");
			}
		}
		return (delay != null) ? Instant.now().plus(delay) : null;
	}

	private static @Nullable Duration duration(JsonNode body, String field) {
		JsonNode value = body.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		try {
			Duration duration = DurationStyle.detectAndParse(value.asString());
			if (duration.isNegative() || (duration.isZero() && field.equals("deadline"))) {
				throw new IllegalArgumentException();
			}
			return duration;
		}
		catch (RuntimeException ex) {
			throw AgentHandler.badRequest(
					"'" + field + "' must be a positive duration such as \"10s\", \"5m\" or \"PT1H\"");
		}
	}

	private static @Nullable String idempotencyKey(JsonNode body) {
		JsonNode key = body.get("idempotencyKey");
		if (key == null || key.isNull()) {
			return null;
		}
		if (!key.isString() || key.asString().isBlank() || key.asString().length() > RunRequest.MAX_KEY_LENGTH) {
			throw AgentHandler.badRequest(
					"'idempotencyKey' must be a non-blank string of at most " + RunRequest.MAX_KEY_LENGTH + " characters");
		}
		return key.asString();
	}

	// what the caller asked for, whatever the order of its members; the key itself is not part of it
	private static String fingerprint(JsonNode body) {
		ObjectNode request = ((ObjectNode) body).deepCopy();
		request.remove("idempotencyKey");
		return RunIdempotency.fingerprint(request);
	}

	private static long after(ServerRequest request) {
		Optional<String> value = Optional.ofNullable(request.headers().firstHeader("Last-Event-ID"))
			.or(() -> request.queryParam("after"));
		if (value.isEmpty() || value.get().isBlank()) {
			return 0;
		}
		try {
			long after = Long.parseLong(value.get().strip());
			if (after < 0) {
				throw new NumberFormatException();
			}
			return after;
		}
		catch (NumberFormatException ex) {
			throw AgentHandler.badRequest("'Last-Event-ID' (or 'after') must be an event id: a whole number >= 0");
		}
	}

	private static int intParam(ServerRequest request, String name, int defaultValue) {
		Optional<String> value = request.queryParam(name);
		try {
			return value.map((text) -> Integer.parseInt(text.strip())).orElse(defaultValue);
		}
		catch (NumberFormatException ex) {
			throw AgentHandler.badRequest("'" + name + "' must be an integer, was '" + value.get() + "'");
		}
	}

	private static Mono<ServerResponse> respond(HttpStatus status, String error, @Nullable String message) {
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(new AgentEventViews.ErrorView(error, (message != null) ? message : error));
	}

	/**
	 * A run as the endpoint shows it.
	 */
	record RunView(String id, String kind, String target, String sessionId, String status, @Nullable JsonNode result,
			@Nullable ErrorView error, int attempts, String createdAt, @Nullable String startedAt,
			@Nullable String finishedAt) {

		static RunView of(Run run) {
			return new RunView(run.id(), run.kind(), run.target(), run.sessionId(),
					run.status().name().toLowerCase(Locale.ROOT), run.result(),
					(run.error() != null) ? new ErrorView(run.error().code(), run.error().message()) : null,
					run.attempts(), run.createdAt().toString(),
					(run.startedAt() != null) ? run.startedAt().toString() : null,
					(run.finishedAt() != null) ? run.finishedAt().toString() : null);
		}

	}

	record ErrorView(String code, String message) {
	}

}
