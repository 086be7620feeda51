package dev.agcore.observation;

import java.math.BigDecimal;

import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * Records what agents do. Called on hot paths: implementations must be cheap and
 * thread-safe, and must never record prompt or completion content.
 */
public interface AgentMetrics {

	/** Records nothing. */
	AgentMetrics NOOP = new AgentMetrics() {
	};

	/**
	 * Record one model call.
	 * @param provider the provider name ({@code gen_ai.provider.name})
	 * @param requestModel the model requested ({@code gen_ai.request.model})
	 * @param usage the tokens consumed, {@link Usage#EMPTY} when unknown or failed
	 * @param durationNanos how long the call took
	 * @param error the failure, or null on success
	 */
	default void modelCall(String provider, String requestModel, Usage usage, long durationNanos,
			@Nullable Throwable error) {
	}

	/**
	 * Record the time to the first chunk of a streamed model call.
	 * @param provider the provider name ({@code gen_ai.provider.name})
	 * @param requestModel the model requested ({@code gen_ai.request.model})
	 * @param nanos how long the first chunk took to arrive
	 */
	default void modelFirstChunk(String provider, String requestModel, long nanos) {
	}

	/**
	 * Record the cost of one model call of an agent, for models with a configured price.
	 * @param agent the agent name
	 * @param provider the provider name
	 * @param model the model's configured name (never the model the server reported)
	 * @param cost the cost, in the currency of the price table
	 */
	default void modelCost(String agent, String provider, String model, BigDecimal cost) {
	}

	/**
	 * Record one tool call.
	 * @param agent the agent name
	 * @param tool the tool name as the model called it
	 * @param outcome how it ended
	 * @param durationNanos how long it ran
	 */
	default void toolCall(String agent, String tool, ToolOutcome outcome, long durationNanos) {
	}

	/**
	 * Record one run of a named chain: an invocation or a stream, from subscription to its
	 * end.
	 * @param chain the chain's name, as registered (configuration, never model output)
	 * @param outcome how it ended
	 * @param durationNanos how long it ran
	 */
	default void chainCall(String chain, ChainOutcome outcome, long durationNanos) {
	}

	/**
	 * Record that a turn was started over with another runner.
	 * @param agent the agent name
	 * @param from the runner that failed, e.g. {@code react}
	 * @param to the runner the turn was started over with, e.g. {@code planner}
	 * @param reason why: {@code error} or {@code max_iterations}
	 */
	default void runnerFallback(String agent, String from, String to, String reason) {
	}

	/**
	 * Record that a step of a plan ended.
	 * @param agent the agent name
	 * @param status how it ended: {@code completed}, {@code failed} or {@code skipped}
	 */
	default void planStep(String agent, String status) {
	}

	/**
	 * Record that a plan ended.
	 * @param agent the agent name
	 * @param outcome {@code completed}, {@code failed} or {@code interrupted}
	 */
	default void plan(String agent, String outcome) {
	}

	/**
	 * Record one turn that ended.
	 * @param agent the agent name
	 * @param outcome {@code completed}, {@code max_iterations}, {@code interrupted},
	 * {@code error} or {@code cancelled}
	 * @param modelCalls the model calls the turn made, or -1 when unknown (it failed)
	 * @param toolCalls the tool calls the turn made, or -1 when unknown (it failed)
	 * @param durationNanos how long the turn took
	 */
	default void turn(String agent, String outcome, int modelCalls, int toolCalls, long durationNanos) {
	}

	/**
	 * Record that a failed model call is tried again.
	 * @param provider the provider name
	 * @param requestModel the model requested
	 * @param cause the failure that is retried
	 */
	default void modelRetry(String provider, String requestModel, Throwable cause) {
	}

	/**
	 * Record one operation of a conversation store made by the agent loop.
	 * @param operation {@code load} (the history, at the start of a turn) or {@code append}
	 * (the turn's messages, at its end)
	 * @param durationNanos how long it took
	 * @param error the failure, or null on success
	 */
	default void storeOperation(String operation, long durationNanos, @Nullable Throwable error) {
	}

}
