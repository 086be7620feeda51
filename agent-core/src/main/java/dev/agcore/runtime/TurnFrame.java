package dev.agcore.runtime;

import java.time.Duration;
import java.util.function.Function;

import dev.agcore.context.ContextCapture;
import dev.agcore.context.PropagatedContext;
import dev.agcore.model.ModelCostListener;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.InvokeAgentObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * What every run of an agent's turn (an invocation, a stream, a resumption) runs inside:
 * the caller's context (security, MDC) carried to its tools and hooks; its deadline, so
 * a model that never answers cannot hold the caller for retries times timeouts times
 * iterations; its cost; its log; its observation; and the record of how it ended.
 * Everything the turn carries goes into its Reactor context in one {@code contextWrite},
 * and how it ended is recorded by one operator: the frame costs a few operators, not one
 * per concern.
 */
final class TurnFrame {

	private final String agentName;

	private final String providerName;

	private final String requestModel;

	private final AgentMetrics metrics;

	private final AgentObservations observations;

	private final Duration turnTimeout;

	private final TurnLogSettings turnLog;

	private final ContextCapture contextCapture;

	TurnFrame(String agentName, String providerName, String requestModel, AgentMetrics metrics,
			AgentObservations observations, Duration turnTimeout, TurnLogSettings turnLog,
			ContextCapture contextCapture) {
		this.agentName = agentName;
		this.providerName = providerName;
		this.requestModel = requestModel;
		this.metrics = metrics;
		this.observations = observations;
		this.turnTimeout = turnTimeout;
		this.turnLog = turnLog;
		this.contextCapture = contextCapture;
	}

	/**
	 * Run a turn in its frame; nothing happens before subscription.
	 * @param sessionId the turn's session
	 * @param turn the turn, given its scope
	 * @return the turn in its frame
	 */
	Mono<AgentResult> run(String sessionId, Function<TurnScope, Mono<AgentResult>> turn) {
		return TurnContext.propagate(this.contextCapture, this.agentName, sessionId, (view, propagated) -> {
			// the priced calls of this turn, of any model: see ConfiguredChatModel
			TurnCost cost = new TurnCost(this.agentName, this.metrics);
			TurnScope scope = new TurnScope(cost,
					TurnLog.start(this.agentName, sessionId, this.turnLog.capture(), this.turnLog.listener()));
			TurnObservations.Once observation = this.observations.isNoop() ? null : startObservation(view, sessionId);
			Mono<AgentResult> bounded = scope.deadline()
				.bound(Mono.defer(() -> turn.apply(scope)), this.agentName, this.turnTimeout)
				.map(cost::addTo);
			return Ending.watch(bounded, new TurnEnd(this.agentName, this.metrics, scope, observation))
				.contextWrite((context) -> written(context, propagated, cost, observation));
		});
	}

	private static Context written(Context context, PropagatedContext propagated, TurnCost cost,
			TurnObservations.@Nullable Once observation) {
		Context written = context.put(PropagatedContext.CONTEXT_KEY, propagated)
			.put(ModelCostListener.CONTEXT_KEY, cost);
		return (observation != null) ? written.put(ObservationThreadLocalAccessor.KEY, observation.observation())
				: written;
	}

	/**
	 * Start the observation of a turn: the parent of its model and tool calls, through the
	 * Reactor context; its own parent is the caller's, from the Reactor context or the
	 * caller's thread (a sub-agent tool's).
	 */
	private TurnObservations.Once startObservation(ContextView view, String sessionId) {
		Observation parent = AgentObservations.current(view);
		if (parent == null) {
			parent = this.observations.registry().getCurrentObservation();
		}
		InvokeAgentObservationContext context = new InvokeAgentObservationContext(this.agentName,
				this.providerName, this.requestModel, sessionId);
		return new TurnObservations.Once(this.observations.invokeAgent(context, parent).start());
	}

}
