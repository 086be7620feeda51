package dev.agcore.workflow;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;

import dev.agcore.context.CallerThread;
import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Executes the workflows of a {@link WorkflowRegistry}, checkpointing their tasks in a
 * {@link CheckpointStore} under the run id. Running a run id again (after an interrupt,
 * or after the instance that ran it died) runs the workflow from the start, with its
 * finished tasks answered from the checkpoint.
 * <p>
 * The workflow's function runs on {@link Schedulers#boundedElastic()}, never on an event
 * loop. Cancelling the subscription interrupts its thread and stops further tasks.
 *
 * @since 0.1.0
 */
public final class WorkflowEngine {

	private final WorkflowRegistry registry;

	private final CheckpointStore store;

	private final JsonMapper mapper;

	private final Scheduler scheduler;

	/**
	 * Create an engine with the default mapper, on {@link Schedulers#boundedElastic()}.
	 * @param registry the workflows
	 * @param store where their checkpoints are kept
	 */
	public WorkflowEngine(WorkflowRegistry registry, CheckpointStore store) {
		this(registry, store, AgentJson.mapper(), Schedulers.boundedElastic());
	}

	/**
	 * Create an engine.
	 * @param registry the workflows
	 * @param store where their checkpoints are kept
	 * @param mapper the mapper of task results, inputs and outputs
	 * @param scheduler where workflow functions run; its threads must be allowed to block
	 */
	public WorkflowEngine(WorkflowRegistry registry, CheckpointStore store, JsonMapper mapper, Scheduler scheduler) {
		this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.mapper = Objects.requireNonNull(mapper, "'mapper' must not be null");
		this.scheduler = Objects.requireNonNull(scheduler, "'scheduler' must not be null");
	}

	public WorkflowRegistry registry() {
		return this.registry;
	}

	public CheckpointStore store() {
		return this.store;
	}

	/**
	 * Run a workflow, or continue a run, to its end or its next interrupt.
	 * @param workflow the workflow's name
	 * @param runId the run, the key of its checkpoint
	 * @param input the input
	 * @param resumeValues the answers to the workflow's interrupts, the k-th for the k-th
	 * interrupt call; answers already kept for the run stay (the first written wins), so an
	 * empty list uses the kept ones
	 * @return how the execution ended; fails with the workflow's error
	 */
	public Mono<WorkflowResult> run(String workflow, String runId, JsonNode input, List<JsonNode> resumeValues) {
		return stream(workflow, runId, input, resumeValues).filter(WorkflowEvent::isEnd)
			.next()
			.map((end) -> WorkflowEvent.COMPLETED.equals(end.type())
					? WorkflowResult.completed(end.data().path("output"))
					: WorkflowResult.interrupted(end.data().path("payload")));
	}

	/**
	 * Run a workflow, or continue a run, with its events: {@code task_started},
	 * {@code task_completed}, custom events, and last {@code interrupted} or
	 * {@code completed}.
	 * @param workflow the workflow's name
	 * @param runId the run, the key of its checkpoint
	 * @param input the input
	 * @param resumeValues the answers to the workflow's interrupts, as for {@link #run}
	 * @return the events; fails with the workflow's error, or at once with an
	 * {@link UnknownWorkflowException}
	 */
	public Flux<WorkflowEvent> stream(String workflow, String runId, JsonNode input, List<JsonNode> resumeValues) {
		Objects.requireNonNull(runId, "'runId' must not be null");
		Objects.requireNonNull(input, "'input' must not be null");
		List<JsonNode> answers = List.copyOf(resumeValues);
		return Flux.defer(() -> {
			Workflow found = this.registry.get(workflow);
			return Flux.create((sink) -> {
				Execution execution = new Execution(found, runId, input, answers, sink, sink.contextView());
				Disposable task = this.scheduler.schedule(execution::run);
				// a cancelled run interrupts the function's thread; completion does not
				sink.onCancel(() -> {
					execution.cancel();
					task.dispose();
				});
			});
		});
	}

	/**
	 * Keep the answer to the interrupt a run waits for, once: when the run does not wait
	 * (it was answered already, say by a worker that died before finishing the run),
	 * nothing is written.
	 * @param runId the run
	 * @param answer the human's answer
	 * @return whether the answer was kept
	 */
	public Mono<Boolean> answer(String runId, JsonNode answer) {
		return this.store.load(runId)
			.filter(Checkpoint::awaitsResume)
			.flatMap((checkpoint) -> this.store.saveResume(runId, checkpoint.resumeValues().size(), answer))
			.defaultIfEmpty(false);
	}

	/** One execution: loads the checkpoint, runs the function, ends the event stream. */
	private final class Execution {

		private final Workflow workflow;

		private final String runId;

		private final JsonNode input;

		private final List<JsonNode> answers;

		private final FluxSink<WorkflowEvent> sink;

		/** The run's Reactor context: who the agents the function calls run for. */
		private final ContextView caller;

		private volatile @Nullable WorkflowExecution context;

		private volatile boolean cancelled;

		Execution(Workflow workflow, String runId, JsonNode input, List<JsonNode> answers,
				FluxSink<WorkflowEvent> sink, ContextView caller) {
			this.workflow = workflow;
			this.caller = caller;
			this.runId = runId;
			this.input = input;
			this.answers = answers;
			this.sink = sink;
		}

		void cancel() {
			this.cancelled = true;
			WorkflowExecution current = this.context;
			if (current != null) {
				current.cancel();
			}
		}

		void run() {
			try {
				Checkpoint checkpoint = load();
				WorkflowExecution execution = new WorkflowExecution(checkpoint, WorkflowEngine.this.store,
						WorkflowEngine.this.mapper, this.sink::next);
				this.context = execution;
				if (this.cancelled) {
					return;
				}
				Object output;
				try (CallerThread.Scope scope = CallerThread.open(this.caller)) {
					output = call(execution);
				}
				ObjectNode data = WorkflowEngine.this.mapper.createObjectNode();
				data.set("output", toJson(output));
				this.sink.next(new WorkflowEvent(WorkflowEvent.COMPLETED, data));
				this.sink.complete();
			}
			catch (Throwable ex) {
				WorkflowInterrupt interrupt = interruptIn(ex);
				if (this.cancelled) {
					return;
				}
				if (interrupt != null) {
					interrupted(interrupt);
				}
				else {
					this.sink.error(ex);
				}
			}
		}

		private Checkpoint load() {
			Checkpoint checkpoint = loadStored();
			int kept = checkpoint.resumeValues().size();
			if (this.answers.size() > kept) {
				for (int i = kept; i < this.answers.size(); i++) {
					WorkflowExecution.await(WorkflowEngine.this.store.saveResume(this.runId, i, this.answers.get(i)));
				}
				checkpoint = loadStored();
			}
			return checkpoint;
		}

		private Checkpoint loadStored() {
			Checkpoint checkpoint = WorkflowExecution.await(WorkflowEngine.this.store.load(this.runId));
			return (checkpoint != null) ? checkpoint.requireReadable() : Checkpoint.empty(this.runId);
		}

		private @Nullable Object call(WorkflowExecution execution) throws Exception {
			WorkflowExecution previous = WorkflowExecution.CURRENT.get();
			WorkflowExecution.CURRENT.set(execution);
			try {
				return this.workflow.function().apply(execution, this.input);
			}
			finally {
				WorkflowExecution.CURRENT.set(previous);
			}
		}

		private void interrupted(WorkflowInterrupt interrupt) {
			try {
				WorkflowExecution.await(WorkflowEngine.this.store.saveInterrupt(this.runId, interrupt.index()));
			}
			catch (RuntimeException ex) {
				this.sink.error(ex);
				return;
			}
			ObjectNode data = WorkflowEngine.this.mapper.createObjectNode();
			data.set("payload", interrupt.payload());
			this.sink.next(new WorkflowEvent(WorkflowEvent.INTERRUPTED, data));
			this.sink.complete();
		}

		private JsonNode toJson(@Nullable Object value) {
			if (value == null) {
				return NullNode.getInstance();
			}
			return (value instanceof JsonNode json) ? json : WorkflowEngine.this.mapper.valueToTree(value);
		}

		// user code may wrap the interrupt (reflection, its own exceptions)
		private static @Nullable WorkflowInterrupt interruptIn(Throwable ex) {
			for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
				if (cause instanceof WorkflowInterrupt interrupt) {
					return interrupt;
				}
				if (cause instanceof CancellationException || cause.getCause() == cause) {
					return null;
				}
			}
			return null;
		}

	}

}
