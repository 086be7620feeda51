package dev.agcore.runtime;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.support.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The ReAct loop with a fallback: when the loop fails (a model error after its retries,
 * any exception) or stops at max-iterations, the turn starts over from its input with the
 * fallback runner. What the failed attempt added to the conversation is dropped, so the
 * stored turn is the fallback's alone; its token usage stays, as it was spent.
 */
final class FallbackRunner implements TurnRunner {

	private static final Logger logger = LoggerFactory.getLogger(FallbackRunner.class);

	private final String agentName;

	private final TurnRunner primary;

	private final TurnRunner fallback;

	private final AgentMetrics metrics;

	FallbackRunner(String agentName, TurnRunner primary, TurnRunner fallback, AgentMetrics metrics) {
		this.agentName = agentName;
		this.primary = primary;
		this.fallback = fallback;
		this.metrics = metrics;
	}

	@Override
	public Mono<Void> run(Turn turn, TurnListener listener) {
		if (turn.isResumed()) {
			// a resumed turn has run tools a human decided on: starting it over would run them again
			return this.primary.run(turn, listener);
		}
		return this.primary.run(turn, listener)
			.then(Mono.fromCallable(() -> turn.isMaxIterations() ? "max_iterations" : ""))
			.onErrorResume(FallbackRunner::fallsBack, (ex) -> {
				logger.warn("Agent '{}': the react runner failed ({}), falling back to the planner runner",
						LogSafe.text(this.agentName), LogSafe.text(ex.toString()));
				return Mono.just("error");
			})
			.flatMap((reason) -> {
				if (reason.isEmpty()) {
					return Mono.empty();
				}
				if (reason.equals("max_iterations")) {
					logger.warn("Agent '{}': the react runner reached max-iterations, falling back to the planner "
							+ "runner", LogSafe.text(this.agentName));
				}
				this.metrics.runnerFallback(this.agentName, Runner.REACT.id(), Runner.PLANNER.id(), reason);
				turn.rewind();
				if (listener.streaming()) {
					// what the caller was shown of the failed attempt is void
					listener.onRunnerFallback(Runner.REACT.id(), Runner.PLANNER.id(), reason);
					listener.onTextReset();
				}
				return this.fallback.run(turn, listener);
			});
	}

	/** The turn's deadline and a paused session are not the loop's failures. */
	private static boolean fallsBack(Throwable ex) {
		return ex instanceof Exception && !(ex instanceof TurnTimeoutException) && !(ex instanceof ResumeException);
	}

}
