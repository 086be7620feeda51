package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import dev.agcore.AgentPrincipal;
import dev.agcore.audit.Auditor;
import dev.agcore.context.PropagatedContext;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.LongTermStore;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.middleware.ToolCallInterrupt;
import dev.agcore.model.ModelCostListener;
import dev.agcore.observation.AgentObservations;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolSpec;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * Runs the tool calls of one model response, through the tool-call middleware, each
 * within its timeout; {@link ToolCallExecutor} runs the call itself. Every failure
 * becomes a tool-result message describing it, so the model can correct itself and the
 * loop goes on.
 * <p>
 * Thread policy: tools are synchronous user code and may block, so every call runs on
 * the tool scheduler (bounded-elastic by default), never on an event loop nor on the
 * caller's thread: a tool that ignores interruption could otherwise hold its caller past
 * its timeout.
 */
final class ToolRunner {

	private final String agentName;

	private final ToolCallExecutor executor;

	private final Duration timeout;

	private final KeyValueStore store;

	private final LongTermStore longTermStore;

	private final Scheduler scheduler;

	private final ToolBounds bounds;

	/**
	 * Create a runner.
	 * @param agentName the agent's name
	 * @param executor runs one call
	 * @param timeout the time a tool may run unless it declares its own
	 * @param store where session and long-term memory live
	 * @param bounds how many calls of one response run, and how many at once
	 * @param scheduler where the calls run; its threads may block
	 */
	ToolRunner(String agentName, ToolCallExecutor executor, Duration timeout, KeyValueStore store,
			ToolBounds bounds, Scheduler scheduler) {
		this.bounds = bounds;
		this.scheduler = scheduler;
		this.agentName = agentName;
		this.executor = executor;
		this.timeout = timeout;
		this.store = store;
		this.longTermStore = LongTermStore.of(store);
	}

	KeyValueStore store() {
		return this.store;
	}

	Auditor auditor() {
		return this.executor.auditor();
	}

	LongTermStore longTermStore() {
		return this.longTermStore;
	}

	List<ToolSpec> specs() {
		return this.executor.specs();
	}

	List<ToolCallback> tools() {
		return this.executor.tools();
	}

	boolean returnsDirectly(String toolName) {
		return this.executor.returnsDirectly(toolName);
	}

	/**
	 * Run the calls, telling each outcome as soon as it is known (completion order, not
	 * call order). A call that middleware interrupted for approval yields an interrupt
	 * instead of a result; the other calls still run.
	 * @param each told the outcome of each call
	 * @return completes when every call ran
	 */
	Mono<?> run(List<ToolCall> calls, Turn turn, MiddlewareChain middleware, TurnListener listener,
			Consumer<IndexedResult> each) {
		ToolCallHandler handler = middleware.wrapToolCall(turn,
				TurnLog.tools(turn.scope().log(), (call) -> execute(call, turn, listener)));
		if (!this.executor.checksPermissions()) {
			return runAll(calls, handler, each);
		}
		// the policy is asked before middleware (which wraps calls as they are assembled), so
		// approval is never asked for a call that will be refused
		return Mono.deferContextual((view) -> {
			for (ToolCall call : calls) {
				if (this.executor.denies(call, context(call, turn, listener, view))) {
					turn.denied(call.id());
				}
			}
			return runAll(calls, handler, each);
		});
	}

	private Mono<?> runAll(List<ToolCall> calls, ToolCallHandler handler, Consumer<IndexedResult> each) {
		if (calls.size() == 1) {
			// the usual case: no Flux around one call
			return runOne(0, calls.get(0), handler).doOnNext(each);
		}
		int running = Math.min(calls.size(), this.bounds.maxCallsPerResponse());
		Flux<IndexedResult> run = Flux.range(0, running)
			.flatMap((i) -> runOne(i, calls.get(i), handler), Math.min(running, this.bounds.maxParallelCalls()));
		return run.concatWith(Flux.range(running, calls.size() - running).map((i) -> notRun(i, calls.get(i))))
			.doOnNext(each)
			.then();
	}

	private IndexedResult notRun(int index, ToolCall call) {
		int max = this.bounds.maxCallsPerResponse();
		return new IndexedResult(index, ToolResultMessage.failure(call, "Error: tool '" + call.name()
				+ "' was not run: at most " + max + " tool calls of one response are run; ask for fewer at once"),
				null);
	}

	private static Mono<IndexedResult> runOne(int index, ToolCall call, ToolCallHandler handler) {
		return handler.call(call)
			.map((result) -> new IndexedResult(index, result, null))
			.onErrorResume(ToolCallInterrupt.class, (interrupt) -> Mono.just(new IndexedResult(index, null, interrupt)));
	}

	/**
	 * The innermost tool-call handler: runs the call on the tool scheduler, never on the
	 * caller's thread, so its timeout holds even for a tool that ignores
	 * interruption. The deadline starts when the tool starts on its worker, not when the
	 * call is queued behind others, and is kept by the shared {@link ToolWatchdog} rather
	 * than a timer task per call.
	 */
	private Mono<ToolResultMessage> execute(ToolCall call, Turn turn, TurnListener listener) {
		return Mono.create((sink) -> {
			Duration timeout = this.executor.timeout(call, this.timeout);
			ToolAttempt attempt = new ToolAttempt(turn, call.id());
			ContextView view = sink.contextView();
			ToolContext context = context(call, turn, listener, view);
			// the caller's security context, MDC and observation, on the tool's thread
			PropagatedContext caller = PropagatedContext.from(view);
			SubAgentParent parent = new SubAgentParent(call, turn, listener,
					(view.getOrDefault(ModelCostListener.CONTEXT_KEY, null) instanceof TurnCost cost) ? cost : null,
					view.getOrDefault(SubAgentTool.DEPTH_KEY, 0));
			Observation turnObservation = AgentObservations.current(view);
			Disposable task = this.scheduler.schedule(() -> {
				long start = System.nanoTime();
				ToolWatchdog.Guard guard = ToolWatchdog.guard(timeout.toNanos(), () -> {
					// settle the attempt before the tool is interrupted, whose interruption must
					// not be reported as a failure of its own; the turn goes on off the watchdog,
					// and not on the tool scheduler, whose workers the late tool may all hold
					if (!this.executor.timeOut(attempt, call, context, timeout, start)) {
						return false;
					}
					Schedulers.parallel().schedule(() -> sink.success(this.executor.timeoutResult(call, timeout)));
					return true;
				});
				ToolResultMessage result;
				try (PropagatedContext.Scope scope = caller.open()) {
					result = this.executor.execute(call, context, attempt, parent, turnObservation);
				}
				catch (RuntimeException | Error ex) {
					guard.finish();
					sink.error(ex);
					return;
				}
				if (guard.finish()) {
					sink.success(result);
				}
			});
			// a cancelled turn interrupts its running tools
			sink.onCancel(task);
		});
	}

	private ToolContext context(ToolCall call, Turn turn, TurnListener listener, ContextView view) {
		return new ToolContext(call.id(), turn.sessionId(), this.agentName, turn.state(), turn.memory(),
				this.longTermStore, turn.userId(),
				(progress, total, message) -> listener.onToolProgress(call, progress, total, message),
				AgentPrincipal.from(view).orElse(null));
	}

	/**
	 * The outcome of one call and the position of the call in the assistant message:
	 * either a result or an interrupt.
	 */
	record IndexedResult(int index, @Nullable ToolResultMessage message, @Nullable ToolCallInterrupt interrupt) {

	}

}
