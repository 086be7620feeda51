package dev.agcore.runtime;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.InvokeAgentObservationContext;
import org.jspecify.annotations.Nullable;

/**
 * Records how a turn ended, once: its metrics, its log line and summary, and its
 * observation.
 */
final class TurnEnd implements Ending.Listener<AgentResult> {

	private final String agentName;

	private final AgentMetrics metrics;

	private final TurnScope scope;

	private final TurnObservations.@Nullable Once observation;

	private final long start = System.nanoTime();

	/**
	 * Start recording a turn.
	 * @param agentName the turn's agent
	 * @param metrics where the turn is recorded
	 * @param scope the turn's cost and log
	 * @param observation the turn's observation, or null when not observed
	 */
	TurnEnd(String agentName, AgentMetrics metrics, TurnScope scope, TurnObservations.@Nullable Once observation) {
		this.agentName = agentName;
		this.metrics = metrics;
		this.scope = scope;
		this.observation = observation;
	}

	@Override
	public void succeeded(@Nullable AgentResult result) {
		TurnLog log = this.scope.log();
		if (log != null && result != null) {
			log.completed(result, this.scope.cost().total());
		}
		record(result, null);
	}

	@Override
	public void failed(Throwable error) {
		TurnLog log = this.scope.log();
		if (log != null) {
			log.failed(error, this.scope.cost().total());
		}
		record(null, error);
	}

	@Override
	public void cancelled() {
		TurnLog log = this.scope.log();
		if (log != null) {
			log.cancelled(this.scope.cost().total());
		}
		record(null, null);
	}

	private void record(@Nullable AgentResult result, @Nullable Throwable error) {
		String outcome = (result != null) ? outcome(result) : (error != null) ? "error" : "cancelled";
		int modelCalls = (result != null) ? this.scope.modelCalls() : -1;
		int toolCalls = (result != null) ? result.toolExecutions().size() : -1;
		this.metrics.turn(this.agentName, outcome, modelCalls, toolCalls, System.nanoTime() - this.start);
		if (this.observation != null
				&& this.observation.observation().getContext() instanceof InvokeAgentObservationContext context) {
			context.setOutcome(outcome);
			context.setModelCalls(modelCalls);
			context.setToolCalls(toolCalls);
			if (result != null) {
				context.setUsage(result.usage());
			}
			this.observation.stop(error);
		}
	}

	private static String outcome(AgentResult result) {
		return switch (result.status()) {
			case COMPLETED -> "completed";
			case MAX_ITERATIONS_REACHED -> "max_iterations";
			case INTERRUPTED -> "interrupted";
		};
	}

}
