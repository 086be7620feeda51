package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.middleware.ToolCallInterrupt;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.ToolOutcome;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs the tool calls of one model response, through the tool-call middleware. Every
 * failure becomes a tool-result message describing it, so the model can correct itself
 * and the loop goes on.
 * <p>
 * Thread policy: tools are synchronous user code and may block, so they never run on an
 * event-loop thread. Several calls run in parallel on the bounded-elastic scheduler. A
 * single call made from a thread that may block (a caller of {@link Agent#call}) runs
 * right there: switching threads would cost more than the call, and a watchdog
 * interrupts it when it overruns its timeout.
 */
final class ToolRunner {

	private final String agentName;

	private final ToolRegistry tools;

	private final List<ToolSpec> specs;

	private final Duration timeout;

	private final AgentMetrics metrics;

	private final Scheduler scheduler = Schedulers.boundedElastic();

	ToolRunner(String agentName, List<ToolCallback> tools, Duration timeout, AgentMetrics metrics) {
		this.agentName = agentName;
		this.tools = ToolRegistry.of(tools);
		this.specs = tools.stream().map(ToolCallback::spec).toList();
		this.timeout = timeout;
		this.metrics = metrics;
	}

	List<ToolSpec> specs() {
		return this.specs;
	}

	/**
	 * Run the calls, emitting each result as soon as it is known (completion order, not
	 * call order). A call that middleware interrupted for approval yields an interrupt
	 * instead of a result; the other calls still run.
	 */
	Flux<IndexedResult> run(List<ToolCall> calls, Turn turn, MiddlewareChain middleware) {
		ToolCallHandler handler = middleware.wrapToolCall(turn, (call) -> execute(call, turn, calls.size() == 1));
		if (calls.size() == 1) {
			return runOne(0, calls.get(0), handler).flux();
		}
		return Flux.range(0, calls.size()).flatMap((i) -> runOne(i, calls.get(i), handler), calls.size());
	}

	private static Mono<IndexedResult> runOne(int index, ToolCall call, ToolCallHandler handler) {
		return handler.call(call)
			.map((result) -> new IndexedResult(index, result, null))
			.onErrorResume(ToolCallInterrupt.class, (interrupt) -> Mono.just(new IndexedResult(index, null, interrupt)));
	}

	/** The innermost tool-call handler: decides the thread, then runs the tool. */
	private Mono<ToolResultMessage> execute(ToolCall call, Turn turn, boolean alone) {
		return Mono.defer(() -> {
			if (alone && !Schedulers.isInNonBlockingThread()) {
				return Mono.just(runGuarded(call, turn));
			}
			long start = System.nanoTime();
			return Mono.fromCallable(() -> runTool(call, turn))
				.subscribeOn(this.scheduler)
				.timeout(this.timeout, Mono.fromSupplier(() -> timedOut(call, start)));
		});
	}

	/** Run on the current thread, interrupted by a watchdog if it overruns. */
	private ToolResultMessage runGuarded(ToolCall call, Turn turn) {
		long start = System.nanoTime();
		Watchdog watchdog = new Watchdog(Thread.currentThread());
		Disposable alarm = Schedulers.parallel().schedule(watchdog, this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		ToolResultMessage result;
		try {
			result = runTool(call, turn);
		}
		finally {
			alarm.dispose();
		}
		if (!watchdog.finish()) {
			return timedOut(call, start);
		}
		return result;
	}

	private ToolResultMessage runTool(ToolCall call, Turn turn) {
		ToolCallback tool = this.tools.find(call.name()).orElse(null);
		if (tool == null) {
			this.metrics.toolCall(this.agentName, call.name(), ToolOutcome.ERROR, 0);
			return ToolResultMessage.failure(call,
					"Error: unknown tool '" + call.name() + "'. Available tools: " + String.join(", ", this.tools.names()));
		}
		long start = System.nanoTime();
		try {
			ToolContext context = new ToolContext(call.id(), turn.sessionId(), this.agentName, turn.state());
			String output = tool.call(call.arguments(), context);
			this.metrics.toolCall(this.agentName, call.name(), ToolOutcome.SUCCESS, System.nanoTime() - start);
			return ToolResultMessage.success(call, (output != null) ? output : "");
		}
		catch (ToolArgumentsException ex) {
			this.metrics.toolCall(this.agentName, call.name(), ToolOutcome.ERROR, System.nanoTime() - start);
			return ToolResultMessage.failure(call,
					"Error: invalid arguments for tool '" + call.name() + "': " + ex.getMessage());
		}
		catch (Exception ex) {
			this.metrics.toolCall(this.agentName, call.name(), ToolOutcome.ERROR, System.nanoTime() - start);
			return ToolResultMessage.failure(call, "Error: tool '" + call.name() + "' failed: " + describe(ex));
		}
	}

	private ToolResultMessage timedOut(ToolCall call, long start) {
		this.metrics.toolCall(this.agentName, call.name(), ToolOutcome.TIMEOUT, System.nanoTime() - start);
		return ToolResultMessage.failure(call,
				"Error: tool '" + call.name() + "' did not finish within " + format(this.timeout) + " and was cancelled");
	}

	private static String describe(Throwable ex) {
		String message = ex.getMessage();
		String type = ex.getClass().getSimpleName();
		return (message != null && !message.isBlank()) ? type + ": " + message : type;
	}

	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + " s" : millis + " ms";
	}

	/**
	 * The outcome of one call and the position of the call in the assistant message:
	 * either a result or an interrupt.
	 */
	record IndexedResult(int index, @Nullable ToolResultMessage message, @Nullable ToolCallInterrupt interrupt) {

	}

	/**
	 * Interrupts a thread that runs a tool past its timeout. The three-state handshake
	 * makes sure an interrupt never leaks to the thread after the tool has returned.
	 */
	private static final class Watchdog implements Runnable {

		private static final int RUNNING = 0;

		private static final int INTERRUPTING = 1;

		private static final int FIRED = 2;

		private static final int DONE = 3;

		private final Thread thread;

		private final AtomicInteger state = new AtomicInteger(RUNNING);

		Watchdog(Thread thread) {
			this.thread = thread;
		}

		@Override
		public void run() {
			if (this.state.compareAndSet(RUNNING, INTERRUPTING)) {
				this.thread.interrupt();
				this.state.set(FIRED);
			}
		}

		/** Return true if the tool finished in time; clears a pending interrupt if not. */
		boolean finish() {
			if (this.state.compareAndSet(RUNNING, DONE)) {
				return true;
			}
			while (this.state.get() == INTERRUPTING) {
				Thread.onSpinWait();
			}
			Thread.interrupted();
			return false;
		}

	}

}
