package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Limits the model calls of a turn and of a session. A call over a limit is not made:
 * with {@link ExitBehavior#END} (the default) the turn ends with a final answer naming the
 * limit, with {@link ExitBehavior#FAIL} it fails with a {@link LimitExceededException}.
 * With {@link ExitBehavior#ERROR_TO_MODEL} the first call over the per-turn limit is made
 * once more without tools, the model told that the limit is reached, so it answers with
 * what it has; the session limit, a cost bound, then ends the turn as {@code END} does. Each refusal increments
 * {@code agent.limit.exceeded} (tags {@code agent}, {@code limit}).
 * <p>
 * The per-turn count is the turn's model-call number ({@link AgentContext#modelCalls()}),
 * so it survives a turn paused for approval. Session counts are kept in this middleware,
 * in memory: they are lost on restart, not shared between instances, and the least
 * recently used sessions are forgotten beyond {@link Builder#maxSessions(int)}.
 * <pre>
 * agent.middleware(ModelCallLimitMiddleware.builder().perTurn(8).perSession(200).build());
 * </pre>
 */
public final class ModelCallLimitMiddleware implements AgentMiddleware {

	static final String PER_TURN = "model_calls_per_turn";

	static final String PER_SESSION = "model_calls_per_session";

	private final int perTurn;

	private final int perSession;

	private final ExitBehavior exitBehavior;

	private final MiddlewareMetrics metrics;

	private final SessionCounts sessions;

	private ModelCallLimitMiddleware(Builder builder) {
		this.perTurn = builder.perTurn;
		this.perSession = builder.perSession;
		this.exitBehavior = builder.exitBehavior;
		this.metrics = new MiddlewareMetrics(builder.meterRegistry);
		this.sessions = new SessionCounts(builder.maxSessions);
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		return Mono.defer(() -> {
			if (this.perTurn > 0 && context.modelCalls() > this.perTurn) {
				if (this.exitBehavior == ExitBehavior.ERROR_TO_MODEL && context.modelCalls() == this.perTurn + 1
						&& this.sessions.tryIncrement(context.sessionId(), sessionLimit())) {
					return lastCall(context, request, next);
				}
				return refuse(context, PER_TURN, this.perTurn, "per turn");
			}
			if (this.perSession > 0 && !this.sessions.tryIncrement(context.sessionId(), this.perSession)) {
				return refuse(context, PER_SESSION, this.perSession, "per session");
			}
			return next.call(request);
		});
	}

	// ERROR_TO_MODEL: the model is told the limit is reached and answers once more, without
	// tools, so the turn ends with its own summary rather than a canned message
	private Mono<ChatResponse> lastCall(AgentContext context, ChatRequest request, ModelCall next) {
		this.metrics.increment(MiddlewareMetrics.LIMIT_EXCEEDED, "agent", context.agentName(), "limit", PER_TURN);
		List<Message> messages = new ArrayList<>(request.messages());
		messages.add(new UserMessage("[agent runtime] The model call limit of this turn (" + this.perTurn
				+ ") is reached: no more tools can be called. Answer now with what you have."));
		return next.call(new ChatRequest(messages, List.of(), request.options()));
	}

	private int sessionLimit() {
		return (this.perSession > 0) ? this.perSession : Integer.MAX_VALUE;
	}

	/**
	 * Return how many model calls this middleware let through for a session.
	 * @param sessionId the session
	 * @return the count, 0 for an unknown session
	 */
	public int sessionCount(String sessionId) {
		return this.sessions.get(sessionId);
	}

	/**
	 * Forget a session's count, for example when its conversation is cleared.
	 * @param sessionId the session
	 */
	public void resetSession(String sessionId) {
		this.sessions.remove(sessionId);
	}

	private Mono<ChatResponse> refuse(AgentContext context, String limit, int max, String scope) {
		this.metrics.increment(MiddlewareMetrics.LIMIT_EXCEEDED, "agent", context.agentName(), "limit", limit);
		String message = "Agent '" + context.agentName() + "' reached its model call limit (" + max + " " + scope
				+ ") and stopped.";
		if (this.exitBehavior == ExitBehavior.FAIL) {
			return Mono.error(new LimitExceededException(limit, max, message));
		}
		return Mono.just(new ChatResponse(AssistantMessage.of(message), Usage.EMPTY, FinishReason.STOP, ""));
	}

	@Override
	public String toString() {
		return "ModelCallLimitMiddleware[perTurn=" + this.perTurn + ", perSession=" + this.perSession
				+ ", exitBehavior=" + this.exitBehavior + "]";
	}

	/**
	 * Counts calls per session; a small LRU map, so abandoned sessions do not pile up.
	 */
	private static final class SessionCounts {

		private final Map<String, int[]> counts;

		SessionCounts(int maxSessions) {
			this.counts = new LinkedHashMap<>(16, 0.75f, true) {

				@Override
				protected boolean removeEldestEntry(Map.Entry<String, int[]> eldest) {
					return size() > maxSessions;
				}

			};
		}

		synchronized boolean tryIncrement(String sessionId, int max) {
			int[] count = this.counts.computeIfAbsent(sessionId, (id) -> new int[1]);
			if (count[0] >= max) {
				return false;
			}
			count[0]++;
			return true;
		}

		synchronized int get(String sessionId) {
			int[] count = this.counts.get(sessionId);
			return (count != null) ? count[0] : 0;
		}

		synchronized void remove(String sessionId) {
			this.counts.remove(sessionId);
		}

	}

	/**
	 * Builds a {@link ModelCallLimitMiddleware}. At least one limit must be set.
	 */
	public static final class Builder {

		/** Default number of sessions whose counts are kept. */
		public static final int DEFAULT_MAX_SESSIONS = 10_000;

		private int perTurn;

		private int perSession;

		private ExitBehavior exitBehavior = ExitBehavior.END;

		private int maxSessions = DEFAULT_MAX_SESSIONS;

		private @Nullable MeterRegistry meterRegistry;

		private Builder() {
		}

		/**
		 * Allow at most this many model calls per turn.
		 * @param perTurn the limit, at least 1
		 * @return this builder
		 */
		public Builder perTurn(int perTurn) {
			this.perTurn = Checks.atLeastOne(perTurn, "perTurn");
			return this;
		}

		/**
		 * Allow at most this many model calls per session, across turns.
		 * @param perSession the limit, at least 1
		 * @return this builder
		 */
		public Builder perSession(int perSession) {
			this.perSession = Checks.atLeastOne(perSession, "perSession");
			return this;
		}

		public Builder exitBehavior(ExitBehavior exitBehavior) {
			this.exitBehavior = Objects.requireNonNull(exitBehavior, "'exitBehavior' must not be null");
			return this;
		}

		/**
		 * Keep the counts of at most this many sessions, forgetting the least recently
		 * used ones.
		 * @param maxSessions the bound, at least 1
		 * @return this builder
		 */
		public Builder maxSessions(int maxSessions) {
			this.maxSessions = Checks.atLeastOne(maxSessions, "maxSessions");
			return this;
		}

		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		public ModelCallLimitMiddleware build() {
			if (this.perTurn == 0 && this.perSession == 0) {
				throw new IllegalStateException("'perTurn' or 'perSession' must be set");
			}
			return new ModelCallLimitMiddleware(this);
		}

	}

}
