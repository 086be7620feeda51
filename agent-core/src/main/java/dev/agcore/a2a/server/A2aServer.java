package dev.agcore.a2a.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.AgentException;
import dev.agcore.a2a.server.A2aTaskStore.A2aTaskRecord;
import dev.agcore.memory.PendingTurn;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import io.a2a.spec.Artifact;
import io.a2a.spec.AuthenticatedExtendedCardNotConfiguredError;
import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.InternalError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCErrorResponse;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.Part;
import io.a2a.spec.PushNotificationNotSupportedError;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.spec.UnsupportedOperationError;
import io.a2a.util.Utils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The A2A JSON-RPC endpoint of one agent (protocol version 0.3). A task is a turn of the
 * agent in the session its context id names: {@code message/send} and
 * {@code message/stream} start one (or, with the task id of a task in state
 * {@code input-required}, answer the turn's pending approvals and resume it),
 * {@code tasks/get} reads one from the {@link A2aTaskStore}, {@code tasks/cancel} stops
 * a running turn or rejects a paused turn's waiting tool calls. A task belongs to the
 * caller that created it; every other caller gets {@code TaskNotFound}.
 * <p>
 * Every failure is a JSON-RPC error: a malformed request names what was wrong; an
 * unexpected failure is logged and answered as an internal error without its details.
 *
 * @since 0.1.0
 */
public final class A2aServer {

	private static final Logger logger = LoggerFactory.getLogger(A2aServer.class);

	/** The most messages a task keeps in its history; older ones are dropped. */
	static final int MAX_HISTORY = 50;

	/** The longest id (task, context or request) accepted. */
	static final int MAX_ID_LENGTH = AgentRequest.MAX_SESSION_ID_LENGTH;

	private final Agent agent;

	private final A2aTaskStore tasks;

	// the turns running on this instance, by task id: emitting stops the turn
	private final Map<String, Sinks.Empty<Void>> running = new ConcurrentHashMap<>();

	/**
	 * Serve an agent.
	 * @param agent the agent
	 * @param tasks where its tasks are kept
	 */
	public A2aServer(Agent agent, A2aTaskStore tasks) {
		this.agent = Objects.requireNonNull(agent, "'agent' must not be null");
		this.tasks = Objects.requireNonNull(tasks, "'tasks' must not be null");
	}

	/**
	 * The agent served.
	 * @return the agent
	 */
	public Agent agent() {
		return this.agent;
	}

	/**
	 * Answer a JSON-RPC request.
	 * @param body the request's body
	 * @param caller who sends it
	 * @return the answer; never an error signal
	 */
	public Mono<A2aReply> handle(String body, A2aCaller caller) {
		A2aCall call;
		try {
			call = A2aCall.read(body);
		}
		catch (A2aFailure ex) {
			return Mono.just(error(null, ex.error()));
		}
		Object id = call.id();
		return Mono.defer(() -> dispatch(call, caller))
			.onErrorResume((ex) -> Mono.just(error(id, failure(call.method(), ex))));
	}

	private Mono<A2aReply> dispatch(A2aCall call, A2aCaller caller) {
		Object id = call.id();
		return switch (call.method()) {
			case "message/send" -> {
				MessageSendParams params = call.params(MessageSendParams.class);
				yield begin(params, caller).flatMap((turn) -> {
					if (params.configuration() != null && Boolean.FALSE.equals(params.configuration().blocking())) {
						// not blocking: the turn goes on without the caller, who polls tasks/get
						run(turn).subscribe(null, (ex) -> logger.warn("A2A task {} failed", turn.id(), ex));
						return Mono.just(turn.state.task());
					}
					return run(turn).then(Mono.fromSupplier(turn.state::task));
				}).map((task) -> json(new SendMessageResponse(id, task)));
			}
			case "message/stream" -> begin(call.params(MessageSendParams.class), caller)
				.map((turn) -> new A2aReply.Stream(run(turn)
					.map((event) -> Utils.toJsonString(new SendStreamingMessageResponse(id, event)))));
			case "tasks/get" -> get(call.params(TaskQueryParams.class), caller)
				.map((task) -> json(new GetTaskResponse(id, task)));
			case "tasks/cancel" -> cancel(call.params(TaskIdParams.class), caller)
				.map((task) -> json(new CancelTaskResponse(id, task)));
			case "tasks/resubscribe" -> Mono.error(new A2aFailure(new UnsupportedOperationError(null,
					"tasks/resubscribe is not supported: read the task with tasks/get", null)));
			case "tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get",
					"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete" ->
				Mono.error(new A2aFailure(new PushNotificationNotSupportedError()));
			case "agent/getAuthenticatedExtendedCard" ->
				Mono.error(new A2aFailure(new AuthenticatedExtendedCardNotConfiguredError(null, null, null)));
			default -> Mono.error(new A2aFailure(new MethodNotFoundError(null,
					"Method not found: " + bounded(call.method()) + "; this server serves message/send, "
							+ "message/stream, tasks/get and tasks/cancel",
					null)));
		};
	}

	// -- message/send and message/stream

	private Mono<Turn> begin(MessageSendParams params, A2aCaller caller) {
		Message message = params.message();
		if (message == null) {
			throw A2aFailure.invalidParams("params.message is required");
		}
		if (params.configuration() != null && params.configuration().pushNotificationConfig() != null) {
			throw new A2aFailure(new PushNotificationNotSupportedError());
		}
		return (message.getTaskId() != null) ? resumed(message, caller) : started(message, caller);
	}

	private Mono<Turn> started(Message message, A2aCaller caller) {
		String contextId = (message.getContextId() != null) ? id(message.getContextId(), "params.message.contextId")
				: UUID.randomUUID().toString();
		String text = A2aMessages.text(message);
		String taskId = UUID.randomUUID().toString();
		return caller.mayUse(contextId).flatMap((allowed) -> {
			if (!allowed) {
				return Mono.error(A2aFailure.invalidParams("No context '" + contextId + "'"));
			}
			Task task = new Task(taskId, contextId, new TaskStatus(TaskState.WORKING), List.of(),
					List.of(user(message, taskId, contextId)), null);
			A2aTaskRecord record = new A2aTaskRecord(this.agent.name(), caller.name(), task);
			AgentRequest request = AgentRequest.of(contextId, text).withUserId(caller.name());
			return this.tasks.save(record)
				.thenReturn(new Turn(new TurnState(record), Flux.defer(() -> this.agent.stream(request))
					.contextWrite(caller.context())));
		});
	}

	private Mono<Turn> resumed(Message message, A2aCaller caller) {
		String taskId = id(message.getTaskId(), "params.message.taskId");
		return owned(taskId, caller).flatMap((record) -> {
			Task task = record.task();
			if (message.getContextId() != null && !message.getContextId().equals(task.getContextId())) {
				return Mono.error(A2aFailure.invalidParams("params.message.contextId is not the context of task '"
						+ taskId + "' (" + task.getContextId() + ")"));
			}
			TaskState state = task.getStatus().state();
			if (state != TaskState.INPUT_REQUIRED) {
				return Mono.error(A2aFailure.invalidParams("Task '" + taskId + "' is " + state.asString()
						+ (state.isFinal() ? "; a task in a final state cannot go on: send a message without "
								+ "taskId, with contextId " + task.getContextId() + ", to continue the conversation"
								: "; only a task in state input-required takes a message")));
			}
			return this.agent.pendingTurn(task.getContextId())
				.contextWrite(caller.context())
				.switchIfEmpty(Mono.error(() -> A2aFailure.invalidParams("Task '" + taskId
						+ "' waits for nothing any more: its turn was resumed or dropped")))
				.flatMap((pending) -> {
					Map<String, ToolDecision> decisions = A2aMessages.decisions(message, pending);
					A2aTaskRecord working = record.with(update(task, new TaskStatus(TaskState.WORKING),
							task.getArtifacts(), user(message, taskId, task.getContextId())));
					ResumeRequest request = ResumeRequest.of(task.getContextId(), decisions).withUserId(caller.name());
					return this.tasks.save(working)
						.thenReturn(new Turn(new TurnState(working), Flux.defer(() -> this.agent.resumeStream(request))
							.contextWrite(caller.context())));
				});
		});
	}

	// the task's events: the task, the answer's text as it comes, and a final status
	private Flux<StreamingEventKind> run(Turn turn) {
		Sinks.Empty<Void> cancel = Sinks.empty();
		this.running.put(turn.id(), cancel);
		TurnState state = turn.state;
		Task first = state.task();
		Flux<StreamingEventKind> events = turn.events()
			.takeUntilOther(cancel.asMono())
			.concatMap((event) -> onEvent(state, event))
			.onErrorResume((ex) -> Flux.defer(() -> finish(state, failed(state, ex))))
			.concatWith(Flux.defer(() -> state.finished ? Flux.empty()
					: finish(state, status(state, TaskState.CANCELED, null), statusEvent(state, TaskState.CANCELED, null))))
			.doOnCancel(() -> {
				// the caller went away: the turn stops, unfinished
				if (!state.finished) {
					state.finished = true;
					this.tasks.save(state.record.with(status(state, TaskState.CANCELED, null).task()))
						.subscribe(null, (ex) -> logger.warn("Could not save the canceled A2A task {}", turn.id(), ex));
				}
			})
			.doFinally((signal) -> this.running.remove(turn.id(), cancel));
		return Flux.<StreamingEventKind>just(first).concatWith(events);
	}

	private Flux<StreamingEventKind> onEvent(TurnState state, AgentEvent event) {
		Task task = state.task();
		if (event instanceof AgentEvent.TextDelta delta) {
			state.text.append(delta.text());
			boolean append = state.chunks++ > 0;
			return Flux.just(new TaskArtifactUpdateEvent(task.getId(), answer(task.getId(), delta.text()),
					task.getContextId(), append, false, null));
		}
		if (event instanceof AgentEvent.TextReset) {
			// the text so far was taken back (a retried model call): the artifact starts again
			state.text.setLength(0);
			state.chunks = 0;
			return Flux.just(new TaskArtifactUpdateEvent(task.getId(), answer(task.getId(), ""), task.getContextId(),
					false, false, null));
		}
		if (event instanceof AgentEvent.ToolCallStarted call) {
			return Flux.just(new TaskStatusUpdateEvent(task.getId(), new TaskStatus(TaskState.WORKING,
					A2aMessages.agent(task.getId(), task.getContextId(),
							List.of(new TextPart("Calling tool " + call.name()))),
					null), task.getContextId(), false, null));
		}
		if (event instanceof AgentEvent.Completed completed) {
			return finish(state, completed(state, completed.result()));
		}
		if (event instanceof AgentEvent.Interrupted interrupted) {
			return finish(state, interrupted(state, interrupted.result()));
		}
		return Flux.empty();
	}

	private Ending completed(TurnState state, AgentResult result) {
		Task task = state.task();
		Message answer = A2aMessages.agent(task.getId(), task.getContextId(), List.of(new TextPart(result.output())));
		Artifact artifact = answer(task.getId(), result.output());
		Task done = update(task, new TaskStatus(TaskState.COMPLETED, answer, null), List.of(artifact), answer);
		return new Ending(done, List.of(
				new TaskArtifactUpdateEvent(task.getId(), artifact, task.getContextId(), false, true, null),
				new TaskStatusUpdateEvent(task.getId(), done.getStatus(), task.getContextId(), true, null)));
	}

	private Ending interrupted(TurnState state, AgentResult result) {
		Task task = state.task();
		Message waiting = A2aMessages.waiting(task.getId(), task.getContextId(), result.pendingToolCalls());
		List<Artifact> artifacts = result.output().isEmpty() ? List.of()
				: List.of(answer(task.getId(), result.output()));
		Task paused = update(task, new TaskStatus(TaskState.INPUT_REQUIRED, waiting, null), artifacts, waiting);
		return new Ending(paused,
				List.of(new TaskStatusUpdateEvent(task.getId(), paused.getStatus(), task.getContextId(), true, null)));
	}

	private Ending failed(TurnState state, Throwable ex) {
		String reason;
		if (ex instanceof AgentException agentException && agentException.errorCode() != null) {
			reason = agentException.getMessage();
		}
		else {
			logger.warn("A2A task {} of agent '{}' failed", state.task().getId(), this.agent.name(), ex);
			reason = "The agent failed; the server log has the details";
		}
		Message message = A2aMessages.agent(state.task().getId(), state.task().getContextId(),
				List.of(new TextPart(reason)));
		return status(state, TaskState.FAILED, message).ending(statusEvent(state, TaskState.FAILED, message));
	}

	private Flux<StreamingEventKind> finish(TurnState state, Ending ending) {
		state.finished = true;
		state.record = state.record.with(ending.task());
		return this.tasks.save(state.record).thenMany(Flux.fromIterable(ending.events()));
	}

	private Flux<StreamingEventKind> finish(TurnState state, Ending ending, StreamingEventKind event) {
		return finish(state, new Ending(ending.task(), List.of(event)));
	}

	private static Ending status(TurnState state, TaskState taskState, @Nullable Message message) {
		Task task = state.task();
		return new Ending(update(task, new TaskStatus(taskState, message, null), task.getArtifacts(), message),
				List.of());
	}

	private static TaskStatusUpdateEvent statusEvent(TurnState state, TaskState taskState, @Nullable Message message) {
		Task task = state.task();
		return new TaskStatusUpdateEvent(task.getId(), new TaskStatus(taskState, message, null), task.getContextId(),
				true, null);
	}

	// -- tasks/get and tasks/cancel

	private Mono<Task> get(TaskQueryParams params, A2aCaller caller) {
		String taskId = id(params.id(), "params.id");
		return owned(taskId, caller).map((record) -> {
			Task task = record.task();
			int length = params.historyLength();
			List<Message> history = (task.getHistory() != null) ? task.getHistory() : List.of();
			if (length <= 0 || history.size() <= length) {
				return task;
			}
			return new Task(task.getId(), task.getContextId(), task.getStatus(), task.getArtifacts(),
					history.subList(history.size() - length, history.size()), task.getMetadata());
		});
	}

	private Mono<Task> cancel(TaskIdParams params, A2aCaller caller) {
		String taskId = id(params.id(), "params.id");
		return owned(taskId, caller).flatMap((record) -> {
			Task task = record.task();
			TaskState state = task.getStatus().state();
			if (state.isFinal()) {
				return Mono.error(new A2aFailure(new TaskNotCancelableError(null,
						"Task '" + taskId + "' is " + state.asString() + " and cannot be canceled", null)));
			}
			Sinks.Empty<Void> turn = this.running.get(taskId);
			if (turn != null) {
				turn.tryEmitEmpty();
			}
			Mono<Void> stop = (state == TaskState.INPUT_REQUIRED) ? rejectWaiting(task, caller) : Mono.empty();
			Task canceled = update(task, new TaskStatus(TaskState.CANCELED), task.getArtifacts(), null);
			return stop.then(this.tasks.save(record.with(canceled))).thenReturn(canceled);
		});
	}

	// a canceled task's paused turn must not block its session: its waiting calls are rejected
	private Mono<Void> rejectWaiting(Task task, A2aCaller caller) {
		String contextId = task.getContextId();
		return this.agent.pendingTurn(contextId).contextWrite(caller.context()).flatMap((pending) -> {
			Map<String, ToolDecision> rejected = new LinkedHashMap<>();
			pending.pendingCalls()
				.forEach((call) -> rejected.put(call.id(), ToolDecision.reject("The A2A task was canceled")));
			return this.agent.resume(ResumeRequest.of(contextId, rejected).withUserId(caller.name()))
				.contextWrite(caller.context())
				.onErrorResume((ex) -> {
					logger.warn("Could not reject the waiting tool calls of canceled A2A task {}", task.getId(), ex);
					return Mono.empty();
				});
		}).then();
	}

	// the same answer for a task that does not exist, another agent's and another caller's
	private Mono<A2aTaskRecord> owned(String taskId, A2aCaller caller) {
		return this.tasks.find(taskId)
			.filter((record) -> record.agent().equals(this.agent.name())
					&& Objects.equals(record.owner(), caller.name()))
			.switchIfEmpty(Mono.error(() -> A2aFailure.taskNotFound(taskId)));
	}

	// -- helpers

	private static Task update(Task task, TaskStatus status, @Nullable List<Artifact> artifacts,
			@Nullable Message added) {
		List<Message> history = new ArrayList<>((task.getHistory() != null) ? task.getHistory() : List.of());
		if (added != null) {
			history.add(added);
		}
		if (history.size() > MAX_HISTORY) {
			history = new ArrayList<>(history.subList(history.size() - MAX_HISTORY, history.size()));
		}
		return new Task(task.getId(), task.getContextId(), status, (artifacts != null) ? artifacts : List.of(), history,
				task.getMetadata());
	}

	private static Message user(Message message, String taskId, String contextId) {
		return new Message(Message.Role.USER, message.getParts(), message.getMessageId(), contextId, taskId,
				message.getReferenceTaskIds(), message.getMetadata(), message.getExtensions());
	}

	private static Artifact answer(String taskId, String text) {
		List<Part<?>> parts = List.of(new TextPart(text));
		return new Artifact("answer-" + taskId, "answer", null, parts, null, null);
	}

	private static String id(@Nullable String id, String field) {
		if (id == null || id.isBlank()) {
			throw A2aFailure.invalidParams(field + " must not be blank");
		}
		if (id.length() > MAX_ID_LENGTH) {
			throw A2aFailure.invalidParams(field + " must be at most " + MAX_ID_LENGTH + " characters, was " + id.length());
		}
		return id;
	}

	private JSONRPCError failure(String method, Throwable ex) {
		if (ex instanceof A2aFailure failure) {
			return failure.error();
		}
		logger.error("A2A request {} to agent '{}' failed", method, this.agent.name(), ex);
		return new InternalError(null, "The request failed unexpectedly; the server log has the details", null);
	}

	private static A2aReply json(Object response) {
		return new A2aReply.Json(Utils.toJsonString(response));
	}

	private static A2aReply error(@Nullable Object id, JSONRPCError error) {
		return json(new JSONRPCErrorResponse(id, error));
	}

	static String bounded(String text) {
		return (text.length() <= 100) ? text : text.substring(0, 100) + "…";
	}

	/** A turn about to run: its task so far and the agent's events. */
	private record Turn(TurnState state, Flux<AgentEvent> events) {

		String id() {
			return this.state.task().getId();
		}

	}

	/** What a running turn has produced so far. */
	private static final class TurnState {

		private A2aTaskRecord record;

		private final StringBuilder text = new StringBuilder();

		private int chunks;

		private volatile boolean finished;

		TurnState(A2aTaskRecord record) {
			this.record = record;
		}

		Task task() {
			return this.record.task();
		}

	}

	/** How a turn ended: the final task and the events that tell it. */
	private record Ending(Task task, List<StreamingEventKind> events) {

		Ending ending(StreamingEventKind event) {
			return new Ending(this.task, List.of(event));
		}

	}

}
