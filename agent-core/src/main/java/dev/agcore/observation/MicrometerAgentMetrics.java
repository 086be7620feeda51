package dev.agcore.observation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.Usage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Records agent metrics in a Micrometer {@link MeterRegistry}:
 * <ul>
 * <li>{@code gen_ai.client.token.usage}: distribution summary of tokens per model call,
 * tagged {@code gen_ai.operation.name}, {@code gen_ai.provider.name},
 * {@code gen_ai.request.model} and {@code gen_ai.token.type} ({@code input} or
 * {@code output});</li>
 * <li>{@code gen_ai.client.operation.duration}: timer of model calls, with the same tags
 * minus the token type, plus {@code error.type} ({@code none} on success);</li>
 * <li>{@code gen_ai.client.operation.time_to_first_chunk}: timer of the first chunk of
 * streamed model calls, tagged {@code gen_ai.operation.name}, {@code gen_ai.provider.name}
 * and {@code gen_ai.request.model};</li>
 * <li>{@code agent.cost}: counter of the cost of model calls with a configured price,
 * tagged {@code agent}, {@code provider} and {@code model} (the configured name);</li>
 * <li>{@code agent.tool.calls}: timer of tool calls tagged {@code agent}, {@code tool},
 * {@code outcome};</li>
 * <li>{@code agent.chain.calls}: timer of runs of named chains (invocations and streams),
 * tagged {@code chain} and {@code outcome} ({@code success}, {@code error} or
 * {@code cancelled});</li>
 * <li>{@code agent.plan.steps}: counter of ended plan steps, tagged {@code agent} and
 * {@code status} ({@code completed}, {@code failed} or {@code skipped});</li>
 * <li>{@code agent.plans}: counter of ended plans, tagged {@code agent} and
 * {@code outcome} ({@code completed}, {@code failed} or {@code interrupted});</li>
 * <li>{@code gen_ai.invoke_agent.duration}: timer of turns, tagged
 * {@code gen_ai.agent.name} and {@code outcome} ({@code completed},
 * {@code max_iterations}, {@code interrupted}, {@code error} or {@code cancelled});</li>
 * <li>{@code agent.turn.model.calls} and {@code agent.turn.tool.calls}: distribution
 * summaries of the model and tool calls per turn, tagged {@code gen_ai.agent.name};</li>
 * <li>{@code agent.model.retries}: counter of retried model calls, tagged
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model} and {@code reason}
 * ({@code rate_limit}, {@code server}, {@code timeout}, {@code connection} or
 * {@code other});</li>
 * <li>{@code agent.store.operation}: timer of the conversation store's operations in the
 * loop, tagged {@code operation} ({@code load} or {@code append}) only.</li>
 * </ul>
 * Meters are looked up once per tag combination and cached, so recording allocates
 * nothing on the hot path.
 */
public final class MicrometerAgentMetrics implements AgentMetrics {

	static final String TOKEN_USAGE = "gen_ai.client.token.usage";

	static final String OPERATION_DURATION = "gen_ai.client.operation.duration";

	static final String TOOL_CALLS = "agent.tool.calls";

	static final String CHAIN_CALLS = "agent.chain.calls";

	static final String RUNNER_FALLBACKS = "agent.runner.fallbacks";

	static final String TIME_TO_FIRST_CHUNK = "gen_ai.client.operation.time_to_first_chunk";

	static final String COST = "agent.cost";

	static final String PLAN_STEPS = "agent.plan.steps";

	static final String PLANS = "agent.plans";

	static final String TURN_DURATION = "gen_ai.invoke_agent.duration";

	static final String TURN_MODEL_CALLS = "agent.turn.model.calls";

	static final String TURN_TOOL_CALLS = "agent.turn.tool.calls";

	static final String MODEL_RETRIES = "agent.model.retries";

	static final String STORE_OPERATION = "agent.store.operation";

	private static final String OPERATION_CHAT = "chat";

	private static final String NO_ERROR = "none";

	private final MeterRegistry registry;

	private final Map<ModelKey, ModelMeters> modelMeters = new ConcurrentHashMap<>();

	private final Map<ToolKey, Timer> toolTimers = new ConcurrentHashMap<>();

	private final Map<ChainKey, Timer> chainTimers = new ConcurrentHashMap<>();

	private final Map<FirstChunkKey, Timer> firstChunkTimers = new ConcurrentHashMap<>();

	private final Map<CostKey, Counter> costCounters = new ConcurrentHashMap<>();

	private final Map<TurnKey, Timer> turnTimers = new ConcurrentHashMap<>();

	private final Map<String, TurnSummaries> turnSummaries = new ConcurrentHashMap<>();

	private final Map<String, Timer> storeTimers = new ConcurrentHashMap<>();

	public MicrometerAgentMetrics(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
	}

	@Override
	public void modelCall(String provider, String requestModel, Usage usage, long durationNanos,
			@Nullable Throwable error) {
		String errorType = (error != null) ? error.getClass().getSimpleName() : NO_ERROR;
		ModelMeters meters = this.modelMeters.get(new ModelKey(provider, requestModel, errorType));
		if (meters == null) {
			meters = this.modelMeters.computeIfAbsent(new ModelKey(provider, requestModel, errorType),
					this::createModelMeters);
		}
		meters.duration.record(durationNanos, TimeUnit.NANOSECONDS);
		if (meters.inputTokens != null && meters.outputTokens != null && !usage.isEmpty()) {
			meters.inputTokens.record(usage.inputTokens());
			meters.outputTokens.record(usage.outputTokens());
		}
	}

	@Override
	public void modelFirstChunk(String provider, String requestModel, long nanos) {
		FirstChunkKey key = new FirstChunkKey(provider, requestModel);
		Timer timer = this.firstChunkTimers.get(key);
		if (timer == null) {
			timer = this.firstChunkTimers.computeIfAbsent(key, (k) -> Timer.builder(TIME_TO_FIRST_CHUNK)
				.description("Time to the first chunk of streamed model calls")
				.tags("gen_ai.operation.name", OPERATION_CHAT, "gen_ai.provider.name", k.provider(),
						"gen_ai.request.model", k.model())
				.register(this.registry));
		}
		timer.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void modelCost(String agent, String provider, String model, BigDecimal cost) {
		CostKey key = new CostKey(agent, provider, model);
		Counter counter = this.costCounters.get(key);
		if (counter == null) {
			counter = this.costCounters.computeIfAbsent(key, (k) -> Counter.builder(COST)
				.description("Cost of model calls, in the currency of the configured price table")
				.tags("agent", k.agent(), "provider", k.provider(), "model", k.model())
				.register(this.registry));
		}
		counter.increment(cost.doubleValue());
	}

	@Override
	public void toolCall(String agent, String tool, ToolOutcome outcome, long durationNanos) {
		ToolKey key = new ToolKey(agent, tool, outcome);
		Timer timer = this.toolTimers.get(key);
		if (timer == null) {
			timer = this.toolTimers.computeIfAbsent(key, (k) -> Timer.builder(TOOL_CALLS)
				.description("Tool calls made by agents")
				.tags("agent", k.agent(), "tool", k.tool(), "outcome", k.outcome().tagValue())
				.register(this.registry));
		}
		timer.record(durationNanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void chainCall(String chain, ChainOutcome outcome, long durationNanos) {
		ChainKey key = new ChainKey(chain, outcome);
		Timer timer = this.chainTimers.get(key);
		if (timer == null) {
			timer = this.chainTimers.computeIfAbsent(key, (k) -> Timer.builder(CHAIN_CALLS)
				.description("Runs of named chains")
				.tags("chain", k.chain(), "outcome", k.outcome().tagValue())
				.register(this.registry));
		}
		timer.record(durationNanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void runnerFallback(String agent, String from, String to, String reason) {
		// rare: the registry's own lookup is cheap enough
		Counter.builder(RUNNER_FALLBACKS)
			.description("Turns started over with a fallback runner")
			.tags("agent", agent, "from", from, "to", to, "reason", reason)
			.register(this.registry)
			.increment();
	}

	@Override
	public void planStep(String agent, String status) {
		// once per step: the registry's own lookup is cheap enough
		Counter.builder(PLAN_STEPS)
			.description("Plan steps that ended")
			.tags("agent", agent, "status", status)
			.register(this.registry)
			.increment();
	}

	@Override
	public void plan(String agent, String outcome) {
		Counter.builder(PLANS)
			.description("Plans that ended")
			.tags("agent", agent, "outcome", outcome)
			.register(this.registry)
			.increment();
	}

	@Override
	public void turn(String agent, String outcome, int modelCalls, int toolCalls, long durationNanos) {
		TurnKey key = new TurnKey(agent, outcome);
		Timer timer = this.turnTimers.get(key);
		if (timer == null) {
			timer = this.turnTimers.computeIfAbsent(key, (k) -> Timer.builder(TURN_DURATION)
				.description("Duration of agent turns")
				.tags("gen_ai.agent.name", k.agent(), "outcome", k.outcome())
				.register(this.registry));
		}
		timer.record(durationNanos, TimeUnit.NANOSECONDS);
		if (modelCalls >= 0 || toolCalls >= 0) {
			TurnSummaries summaries = this.turnSummaries.get(agent);
			if (summaries == null) {
				summaries = this.turnSummaries.computeIfAbsent(agent, this::createTurnSummaries);
			}
			if (modelCalls >= 0) {
				summaries.modelCalls().record(modelCalls);
			}
			if (toolCalls >= 0) {
				summaries.toolCalls().record(toolCalls);
			}
		}
	}

	private TurnSummaries createTurnSummaries(String agent) {
		return new TurnSummaries(
				DistributionSummary.builder(TURN_MODEL_CALLS)
					.description("Model calls per turn")
					.baseUnit("{call}")
					.tag("gen_ai.agent.name", agent)
					.register(this.registry),
				DistributionSummary.builder(TURN_TOOL_CALLS)
					.description("Tool calls per turn")
					.baseUnit("{call}")
					.tag("gen_ai.agent.name", agent)
					.register(this.registry));
	}

	@Override
	public void modelRetry(String provider, String requestModel, Throwable cause) {
		Counter.builder(MODEL_RETRIES)
			.description("Model calls that failed and were tried again")
			.tags("gen_ai.provider.name", provider, "gen_ai.request.model", requestModel, "reason",
					retryReason(cause))
			.register(this.registry)
			.increment();
	}

	@Override
	public void storeOperation(String operation, long durationNanos, @Nullable Throwable error) {
		// the operation is one of a few names the loop passes, never user input
		Timer timer = this.storeTimers.get(operation);
		if (timer == null) {
			timer = this.storeTimers.computeIfAbsent(operation, (name) -> Timer.builder(STORE_OPERATION)
				.description("Conversation store operations of the agent loop")
				.tag("operation", name)
				.register(this.registry));
		}
		timer.record(durationNanos, TimeUnit.NANOSECONDS);
	}

	static String retryReason(Throwable cause) {
		if (cause instanceof ModelRateLimitException) {
			return "rate_limit";
		}
		if (cause instanceof ModelServerException) {
			return "server";
		}
		if (cause instanceof ModelTimeoutException) {
			return "timeout";
		}
		if (cause instanceof ModelConnectionException) {
			return "connection";
		}
		return "other";
	}

	private ModelMeters createModelMeters(ModelKey key) {
		Tags tags = Tags.of("gen_ai.operation.name", OPERATION_CHAT, "gen_ai.provider.name", key.provider(),
				"gen_ai.request.model", key.model());
		Timer duration = Timer.builder(OPERATION_DURATION)
			.description("Duration of model calls")
			.tags(tags)
			.tag("error.type", key.errorType())
			.register(this.registry);
		if (!key.errorType().equals(NO_ERROR)) {
			// failed calls report no usage; registering token meters for them would show empty series
			return new ModelMeters(duration, null, null);
		}
		return new ModelMeters(duration, tokenSummary(tags, "input"), tokenSummary(tags, "output"));
	}

	private DistributionSummary tokenSummary(Tags tags, String type) {
		return DistributionSummary.builder(TOKEN_USAGE)
			.description("Tokens used per model call")
			.baseUnit("{token}")
			.tags(tags)
			.tag("gen_ai.token.type", type)
			.register(this.registry);
	}

	private record ModelKey(String provider, String model, String errorType) {
	}

	private record FirstChunkKey(String provider, String model) {
	}

	private record TurnKey(String agent, String outcome) {
	}

	private record CostKey(String agent, String provider, String model) {
	}

	private record ToolKey(String agent, String tool, ToolOutcome outcome) {
	}

	private record ChainKey(String chain, ChainOutcome outcome) {
	}

	private record TurnSummaries(DistributionSummary modelCalls, DistributionSummary toolCalls) {
	}

	private record ModelMeters(Timer duration, @Nullable DistributionSummary inputTokens,
			@Nullable DistributionSummary outputTokens) {
	}

}
