package dev.agcore.middleware.builtin;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Limits the tool calls of a turn, in total and per tool name. Calls are counted in the
 * order the model asked for them, when its response arrives, so the outcome does not
 * depend on which parallel call starts first. A call over a limit is never run:
 * <ul>
 * <li>{@link ExitBehavior#ERROR_TO_MODEL} (the default) answers it with an error result
 * such as {@code Error: tool call limit reached for 'search' (3 per turn)} and lets the
 * model go on;</li>
 * <li>{@link ExitBehavior#END} answers it the same way, then ends the turn with a final
 * answer naming the limit instead of calling the model again;</li>
 * <li>{@link ExitBehavior#FAIL} fails the turn with a {@link LimitExceededException}
 * before any tool of that response runs.</li>
 * </ul>
 * Each refused call increments {@code agent.limit.exceeded} (tags {@code agent},
 * {@code limit}). Counts live in the turn: a turn resumed after an approval pause starts
 * counting again.
 * <pre>
 * agent.middleware(ToolCallLimitMiddleware.builder().perTurn(20).perTool("web_search", 3).build());
 * </pre>
 */
public final class ToolCallLimitMiddleware implements AgentMiddleware {

	static final String PER_TURN = "tool_calls_per_turn";

	static final String PER_TOOL = "tool_calls_per_tool";

	private static final AtomicLong instances = new AtomicLong();

	private final int perTurn;

	private final Map<String, Integer> perTool;

	private final ExitBehavior exitBehavior;

	private final MiddlewareMetrics metrics;

	/** Unique per instance, so two limiters in one chain keep separate counts. */
	private final String stateKey = ToolCallLimitMiddleware.class.getName() + "#" + instances.incrementAndGet();

	private ToolCallLimitMiddleware(Builder builder) {
		this.perTurn = builder.perTurn;
		this.perTool = Map.copyOf(builder.perTool);
		this.exitBehavior = builder.exitBehavior;
		this.metrics = new MiddlewareMetrics(builder.meterRegistry);
	}

	public static Builder builder() {
		return new Builder();
	}

	@Override
	public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		if (!response.message().hasToolCalls()) {
			return response;
		}
		// after-model hooks run one at a time, so the counts need no locking; tools only read them
		TurnCounts counts = (TurnCounts) context.attributes().computeIfAbsent(this.stateKey, (key) -> new TurnCounts());
		counts.refused = new HashMap<>();
		for (ToolCall call : response.message().toolCalls()) {
			String refusal = check(context, counts, call.name());
			if (refusal != null) {
				counts.refused.put(call.id(), refusal);
			}
		}
		return response;
	}

	@Override
	public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		TurnCounts counts = (TurnCounts) context.attributes().get(this.stateKey);
		String refusal = (counts != null) ? counts.refused.get(call.id()) : null;
		return (refusal != null) ? Mono.just(ToolResultMessage.failure(call, refusal)) : next.call(call);
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		TurnCounts counts = (TurnCounts) context.attributes().get(this.stateKey);
		if (counts != null && counts.endMessage != null) {
			return Mono.just(new ChatResponse(AssistantMessage.of(counts.endMessage), Usage.EMPTY, FinishReason.STOP,
					""));
		}
		return next.call(request);
	}

	/** Count one call; return the error text for the model if it is over a limit. */
	private @Nullable String check(AgentContext context, TurnCounts counts, String tool) {
		Integer toolMax = this.perTool.get(tool);
		int toolCount = counts.perTool.getOrDefault(tool, 0);
		String limit;
		int max;
		String description;
		if (this.perTurn > 0 && counts.total >= this.perTurn) {
			limit = PER_TURN;
			max = this.perTurn;
			description = "tool call limit reached (" + max + " per turn)";
		}
		else if (toolMax != null && toolCount >= toolMax) {
			limit = PER_TOOL;
			max = toolMax;
			description = "tool call limit reached for '" + tool + "' (" + max + " per turn)";
		}
		else {
			counts.total++;
			counts.perTool.put(tool, toolCount + 1);
			return null;
		}
		this.metrics.increment(MiddlewareMetrics.LIMIT_EXCEEDED, "agent", context.agentName(), "limit", limit);
		String stopped = "Agent '" + context.agentName() + "' stopped: " + description + ".";
		if (this.exitBehavior == ExitBehavior.FAIL) {
			throw new LimitExceededException(limit, max, stopped);
		}
		if (this.exitBehavior == ExitBehavior.END && counts.endMessage == null) {
			counts.endMessage = stopped;
		}
		return "Error: " + description + "; the call to '" + tool + "' was not run.";
	}

	@Override
	public String toString() {
		return "ToolCallLimitMiddleware[perTurn=" + this.perTurn + ", perTool=" + this.perTool + ", exitBehavior="
				+ this.exitBehavior + "]";
	}

	/** What one turn has used so far. */
	private static final class TurnCounts {

		private int total;

		private final Map<String, Integer> perTool = new HashMap<>();

		/** Error texts of the refused calls of the latest model response, by call id. */
		private Map<String, String> refused = Map.of();

		private @Nullable String endMessage;

	}

	/**
	 * Builds a {@link ToolCallLimitMiddleware}. At least one limit must be set.
	 */
	public static final class Builder {

		private int perTurn;

		private final Map<String, Integer> perTool = new LinkedHashMap<>();

		private ExitBehavior exitBehavior = ExitBehavior.ERROR_TO_MODEL;

		private @Nullable MeterRegistry meterRegistry;

		private Builder() {
		}

		/**
		 * Allow at most this many tool calls per turn, all tools together.
		 * @param perTurn the limit, at least 1
		 * @return this builder
		 */
		public Builder perTurn(int perTurn) {
			this.perTurn = Checks.atLeastOne(perTurn, "perTurn");
			return this;
		}

		/**
		 * Allow at most this many calls of one tool per turn.
		 * @param tool the tool name
		 * @param max the limit, at least 1
		 * @return this builder
		 */
		public Builder perTool(String tool, int max) {
			Checks.notBlank(tool, "tool");
			this.perTool.put(tool, Checks.atLeastOne(max, "perTool[" + tool + "]"));
			return this;
		}

		public Builder perTool(Map<String, Integer> limits) {
			limits.forEach(this::perTool);
			return this;
		}

		public Builder exitBehavior(ExitBehavior exitBehavior) {
			this.exitBehavior = Objects.requireNonNull(exitBehavior, "'exitBehavior' must not be null");
			return this;
		}

		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		public ToolCallLimitMiddleware build() {
			if (this.perTurn == 0 && this.perTool.isEmpty()) {
				throw new IllegalStateException("'perTurn' or 'perTool' must be set");
			}
			return new ToolCallLimitMiddleware(this);
		}

	}

}
