package dev.agcore.workflow;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One execution of a workflow on the thread that runs it: the {@link WorkflowContext}
 * handed to its function, counting task calls and interrupts to derive their ids.
 * Confined to that thread, apart from {@link #cancel()}.
 */
final class WorkflowExecution implements WorkflowContext {

	static final ThreadLocal<@Nullable WorkflowExecution> CURRENT = new ThreadLocal<>();

	// the engine's and the run's own event types
	private static final Set<String> RESERVED = Set.of(WorkflowEvent.TASK_STARTED, WorkflowEvent.TASK_COMPLETED,
			WorkflowEvent.INTERRUPTED, WorkflowEvent.COMPLETED, "failed", "cancelled", "run_started");

	private final String runId;

	private final CheckpointStore store;

	private final JsonMapper mapper;

	private final Map<String, JsonNode> finished;

	private final List<JsonNode> resumeValues;

	private final Consumer<WorkflowEvent> events;

	private final AtomicBoolean cancelled = new AtomicBoolean();

	private final Map<String, Integer> calls = new HashMap<>();

	private int interrupts;

	WorkflowExecution(Checkpoint checkpoint, CheckpointStore store, JsonMapper mapper, Consumer<WorkflowEvent> events) {
		this.runId = checkpoint.runId();
		this.store = store;
		this.mapper = mapper;
		this.finished = new HashMap<>(checkpoint.tasks());
		this.resumeValues = checkpoint.resumeValues();
		this.events = events;
	}

	@Override
	public String runId() {
		return this.runId;
	}

	@Override
	public <T> @Nullable T task(String name, Class<T> type, Callable<@Nullable T> body) {
		return task(name, this.mapper.constructType(type), body);
	}

	@Override
	public <T> @Nullable T task(String name, TypeReference<T> type, Callable<@Nullable T> body) {
		return task(name, this.mapper.constructType(type), body);
	}

	@Override
	public <T> @Nullable T task(String name, JavaType type, Callable<@Nullable T> body) {
		if (name.isBlank()) {
			throw new IllegalArgumentException("A task name must not be blank");
		}
		checkNotCancelled();
		int earlier = this.calls.getOrDefault(name, 0);
		this.calls.put(name, earlier + 1);
		String callId = name + "#" + earlier;
		JsonNode kept = this.finished.get(callId);
		if (kept != null) {
			this.events.accept(new WorkflowEvent(WorkflowEvent.TASK_COMPLETED, taskEvent(name, callId).put("cached", true)));
			return this.mapper.treeToValue(kept, type);
		}
		this.events.accept(new WorkflowEvent(WorkflowEvent.TASK_STARTED, taskEvent(name, callId)));
		T result;
		try {
			result = body.call();
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new WorkflowTaskException(callId, ex);
		}
		// kept before the task returns: a crash after this point does not run it again
		JsonNode json = this.mapper.valueToTree(result);
		await(this.store.saveTask(this.runId, callId, json));
		this.finished.put(callId, json);
		this.events.accept(new WorkflowEvent(WorkflowEvent.TASK_COMPLETED, taskEvent(name, callId).put("cached", false)));
		return result;
	}

	@Override
	public JsonNode interrupt(@Nullable Object payload) {
		checkNotCancelled();
		int index = this.interrupts++;
		if (index < this.resumeValues.size()) {
			return this.resumeValues.get(index);
		}
		throw new WorkflowInterrupt(this.mapper.valueToTree(payload), index);
	}

	@Override
	public void emit(String type, @Nullable Object data) {
		if (type.isBlank() || RESERVED.contains(type)) {
			throw new IllegalArgumentException("A custom workflow event needs a type other than " + RESERVED + ": '"
					+ type + "'");
		}
		this.events.accept(new WorkflowEvent(type, this.mapper.valueToTree(data)));
	}

	void cancel() {
		this.cancelled.set(true);
	}

	boolean isCancelled() {
		return this.cancelled.get();
	}

	private void checkNotCancelled() {
		if (this.cancelled.get() || Thread.currentThread().isInterrupted()) {
			throw new CancellationException("The workflow run '" + this.runId + "' was cancelled");
		}
	}

	private ObjectNode taskEvent(String name, String callId) {
		ObjectNode data = this.mapper.createObjectNode();
		data.put("name", name);
		data.put("callId", callId);
		return data;
	}

	/**
	 * Wait for a store operation. The workflow's function is blocking code on a thread that
	 * may block, and a task's result must be kept before the task returns, so waiting here
	 * is what the thread is for; an interrupt (the run was cancelled) stops the wait.
	 */
	static <T> @Nullable T await(Mono<T> operation) {
		try {
			return operation.toFuture().get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted while waiting for the checkpoint store");
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new IllegalStateException(ex.getCause());
		}
	}

}
