package dev.agcore.runtime;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * What one finished turn did, without any of its content: counts, tokens, cost, time and
 * how it ended. Given to each {@link TurnSummaryListener} of the agent, and logged at
 * INFO by the {@value TurnLog#TURNS_LOGGER} logger.
 *
 * @param agent the agent's name
 * @param sessionId the session
 * @param outcome how the turn ended
 * @param failureCode the stable {@link TurnFailure} code of a failed turn ({@code internal}
 * for an unexpected failure); null unless {@link Outcome#FAILED}
 * @param modelCalls the model calls made, retries and failed calls included
 * @param toolCalls the tool calls run
 * @param usage the tokens used by the turn's model calls
 * @param cost the cost of its priced model calls; null when none has a price
 * @param duration how long the turn ran
 * @since 0.1.0
 */
public record TurnSummary(String agent, String sessionId, Outcome outcome, @Nullable String failureCode,
		int modelCalls, int toolCalls, Usage usage, @Nullable BigDecimal cost, Duration duration) {

	/** The failure code of a failure {@link TurnFailure} has no code for. */
	public static final String INTERNAL = "internal";

	public TurnSummary {
		Objects.requireNonNull(agent, "'agent' must not be null");
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(outcome, "'outcome' must not be null");
		Objects.requireNonNull(usage, "'usage' must not be null");
		Objects.requireNonNull(duration, "'duration' must not be null");
	}

	/**
	 * How a turn ended.
	 */
	public enum Outcome {

		/** The model gave a final answer. */
		COMPLETED,

		/** Tool calls wait for a human decision. */
		INTERRUPTED,

		/** The max-iterations bound was reached. */
		MAX_ITERATIONS,

		/** The turn failed; see {@link TurnSummary#failureCode()}. */
		FAILED,

		/** The caller cancelled the turn. */
		CANCELLED;

		/**
		 * Return the outcome as logged, e.g. {@code max_iterations}.
		 * @return the lower-case name
		 */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

		static Outcome of(AgentResult.Status status) {
			return switch (status) {
				case COMPLETED -> COMPLETED;
				case INTERRUPTED -> INTERRUPTED;
				case MAX_ITERATIONS_REACHED -> MAX_ITERATIONS;
			};
		}

	}

}
