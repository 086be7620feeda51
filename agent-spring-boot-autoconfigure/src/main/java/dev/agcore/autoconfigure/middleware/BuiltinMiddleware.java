package dev.agcore.autoconfigure.middleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.middleware.builtin.ContextEditingMiddleware;
import dev.agcore.middleware.builtin.ModelCallLimitMiddleware;
import dev.agcore.middleware.builtin.ModelFallbackMiddleware;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.middleware.builtin.PiiStrategy;
import dev.agcore.middleware.builtin.PiiType;
import dev.agcore.middleware.builtin.SummarizationMiddleware;
import dev.agcore.middleware.builtin.TodoListMiddleware;
import dev.agcore.middleware.builtin.ToolCallLimitMiddleware;
import dev.agcore.middleware.builtin.ToolRetryMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Creates the built-in middleware of one agent from its
 * {@code agent.agents.<name>.middleware} sections, checking every value with a message
 * that names its property. Each method returns null when its section is absent or
 * switched off.
 */
final class BuiltinMiddleware {

	private static final String DEFAULT_APPROVAL_REASON = "requires approval";

	private final ChatModelRegistry models;

	private final @Nullable MeterRegistry meterRegistry;

	BuiltinMiddleware(ChatModelRegistry models, @Nullable MeterRegistry meterRegistry) {
		this.models = models;
		this.meterRegistry = meterRegistry;
	}

	@Nullable AgentMiddleware modelCallLimit(String prefix, MiddlewareProperties.@Nullable ModelCallLimit limit) {
		if (!isOn(limit)) {
			return null;
		}
		String property = prefix + ".model-call-limit";
		requireAny(property, "per-turn or per-session", limit.getPerTurn(), limit.getPerSession());
		ModelCallLimitMiddleware.Builder builder = ModelCallLimitMiddleware.builder()
			.exitBehavior(limit.getExitBehavior())
			.meterRegistry(this.meterRegistry);
		if (limit.getPerTurn() != null) {
			builder.perTurn(atLeast(limit.getPerTurn(), 1, property + ".per-turn"));
		}
		if (limit.getPerSession() != null) {
			builder.perSession(atLeast(limit.getPerSession(), 1, property + ".per-session"));
		}
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware toolCallLimit(String prefix, MiddlewareProperties.@Nullable ToolCallLimit limit) {
		if (!isOn(limit)) {
			return null;
		}
		String property = prefix + ".tool-call-limit";
		requireAny(property, "per-turn or per-tool", limit.getPerTurn(),
				limit.getPerTool().isEmpty() ? null : limit.getPerTool());
		ToolCallLimitMiddleware.Builder builder = ToolCallLimitMiddleware.builder()
			.exitBehavior(limit.getExitBehavior())
			.meterRegistry(this.meterRegistry);
		if (limit.getPerTurn() != null) {
			builder.perTurn(atLeast(limit.getPerTurn(), 1, property + ".per-turn"));
		}
		limit.getPerTool().forEach((tool, max) -> builder.perTool(tool,
				atLeast((max != null) ? max : 0, 1, property + ".per-tool." + tool)));
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware toolRetry(String prefix, MiddlewareProperties.@Nullable ToolRetry retry) {
		if (!isOn(retry)) {
			return null;
		}
		String property = prefix + ".tool-retry";
		positive(retry.getInitialBackoff(), property + ".initial-backoff");
		positive(retry.getMaxBackoff(), property + ".max-backoff");
		if (retry.getInitialBackoff().compareTo(retry.getMaxBackoff()) > 0) {
			throw invalid(property + ".initial-backoff (" + retry.getInitialBackoff()
					+ ") must not be longer than " + property + ".max-backoff (" + retry.getMaxBackoff() + ")",
					property);
		}
		if (!(retry.getMultiplier() >= 1.0)) {
			throw invalid(property + ".multiplier must be at least 1.0 (was " + retry.getMultiplier() + ")", property);
		}
		if (!(retry.getJitter() >= 0.0 && retry.getJitter() < 1.0)) {
			throw invalid(property + ".jitter must be in [0, 1) (was " + retry.getJitter() + ")", property);
		}
		ToolRetryMiddleware.Builder builder = ToolRetryMiddleware.builder()
			.maxAttempts(atLeast(retry.getMaxAttempts(), 1, property + ".max-attempts"))
			.initialBackoff(retry.getInitialBackoff())
			.multiplier(retry.getMultiplier())
			.maxBackoff(retry.getMaxBackoff())
			.jitter(retry.getJitter());
		if (!retry.getTools().isEmpty()) {
			builder.tools(retry.getTools());
		}
		if (!retry.getRetryOn().isEmpty()) {
			builder.retryOn(exceptionTypes(property + ".retry-on", retry.getRetryOn()));
		}
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware modelFallback(String prefix, MiddlewareProperties.@Nullable ModelFallback fallback,
			ChatModel agentModel) {
		if (!isOn(fallback)) {
			return null;
		}
		String property = prefix + ".model-fallback";
		if (fallback.getModels().isEmpty()) {
			throw new AgentConfigurationException(property + ".models must name at least one model; available: "
					+ this.models.names(), "Set " + property + ".models to the names of providers under "
							+ "agent.providers or of ChatModel beans, in the order to try them.");
		}
		List<ChatModel> fallbacks = new ArrayList<>();
		for (int i = 0; i < fallback.getModels().size(); i++) {
			fallbacks.add(model(property + ".models[" + i + "]", fallback.getModels().get(i)));
		}
		ModelFallbackMiddleware.Builder builder = ModelFallbackMiddleware.builder(fallbacks)
			.primary(agentModel)
			.meterRegistry(this.meterRegistry);
		if (!fallback.getFallbackOn().isEmpty()) {
			builder.fallbackOn(exceptionTypes(property + ".fallback-on", fallback.getFallbackOn()));
		}
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware summarization(String prefix, MiddlewareProperties.@Nullable Summarization summarization,
			ChatModel agentModel) {
		if (!isOn(summarization)) {
			return null;
		}
		String property = prefix + ".summarization";
		String modelName = summarization.getModel();
		ChatModel model = StringUtils.hasText(modelName) ? model(property + ".model", modelName) : agentModel;
		SummarizationMiddleware.Builder builder = SummarizationMiddleware.builder(model)
			.triggerTokens(atLeast(summarization.getTriggerTokens(), 1, property + ".trigger-tokens"))
			.keepMessages(atLeast(summarization.getKeepMessages(), 1, property + ".keep-messages"));
		if (StringUtils.hasText(summarization.getPrompt())) {
			builder.prompt(summarization.getPrompt());
		}
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware contextEditing(String prefix, MiddlewareProperties.@Nullable ContextEditing editing) {
		if (!isOn(editing)) {
			return null;
		}
		String property = prefix + ".context-editing";
		ContextEditingMiddleware.Builder builder = ContextEditingMiddleware.builder()
			.triggerTokens(atLeast(editing.getTriggerTokens(), 1, property + ".trigger-tokens"))
			.keepToolResults(atLeast(editing.getKeepToolResults(), 0, property + ".keep-tool-results"))
			.excludeTools(editing.getExcludeTools().toArray(String[]::new));
		if (StringUtils.hasText(editing.getPlaceholder())) {
			builder.placeholder(editing.getPlaceholder());
		}
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware pii(String prefix, MiddlewareProperties.@Nullable Pii pii) {
		if (!isOn(pii)) {
			return null;
		}
		String property = prefix + ".pii";
		if (!pii.isApplyToInput() && !pii.isApplyToOutput() && !pii.isApplyToToolResults()) {
			throw invalid(property + ": apply-to-input, apply-to-output and apply-to-tool-results are all false, "
					+ "so nothing would be checked", property);
		}
		Map<PiiType, PiiStrategy> strategies = new EnumMap<>(PiiType.class);
		putIfSet(strategies, PiiType.EMAIL, pii.getEmail());
		putIfSet(strategies, PiiType.PHONE, pii.getPhone());
		putIfSet(strategies, PiiType.CREDIT_CARD, pii.getCreditCard());
		putIfSet(strategies, PiiType.API_KEY, pii.getApiKey());
		PiiRedactionMiddleware.Builder builder = PiiRedactionMiddleware.builder()
			.strategies(strategies)
			.input(pii.isApplyToInput())
			.output(pii.isApplyToOutput())
			.toolResults(pii.isApplyToToolResults());
		return build(property, builder::build);
	}

	@Nullable AgentMiddleware todoList(MiddlewareProperties.@Nullable TodoList todoList) {
		return isOn(todoList) ? new TodoListMiddleware() : null;
	}

	@Nullable AgentMiddleware humanInTheLoop(String prefix, MiddlewareProperties.@Nullable HumanInTheLoop approval) {
		if (!isOn(approval)) {
			return null;
		}
		String property = prefix + ".human-in-the-loop.tools";
		Map<String, String> reasons = approvalReasons(approval.getTools());
		if (reasons.isEmpty()) {
			// a map, so a comma-separated value does not bind: suggest the list forms
			throw new AgentConfigurationException(property + " must name at least one tool",
					"List the tools that need approval, e.g. in YAML 'tools: [delete_file, send_email]' or as "
							+ property + "[0]=delete_file and " + property + "[1]=send_email, or remove " + prefix
							+ ".human-in-the-loop.");
		}
		return new HumanInTheLoopMiddleware(reasons);
	}

	/**
	 * Check that every tool the built-ins name is a tool of the agent.
	 * @param prefix the agent's middleware prefix
	 * @param properties the agent's middleware
	 * @param toolNames the names of the agent's tools
	 */
	static void checkTools(String prefix, MiddlewareProperties properties, Predicate<String> known,
			Collection<String> toolNames) {
		MiddlewareProperties.HumanInTheLoop approval = properties.getHumanInTheLoop();
		if (isOn(approval)) {
			checkTools(prefix + ".human-in-the-loop.tools", approvalReasons(approval.getTools()).keySet(), known,
					toolNames);
		}
		MiddlewareProperties.ToolCallLimit limit = properties.getToolCallLimit();
		if (isOn(limit)) {
			checkTools(prefix + ".tool-call-limit.per-tool", limit.getPerTool().keySet(), known, toolNames);
		}
		MiddlewareProperties.ToolRetry retry = properties.getToolRetry();
		if (isOn(retry)) {
			checkTools(prefix + ".tool-retry.tools", retry.getTools(), known, toolNames);
		}
		MiddlewareProperties.ContextEditing editing = properties.getContextEditing();
		if (isOn(editing)) {
			checkTools(prefix + ".context-editing.exclude-tools", editing.getExcludeTools(), known, toolNames);
		}
	}

	private static void checkTools(String property, Collection<String> names, Predicate<String> known,
			Collection<String> toolNames) {
		for (String name : names) {
			if (!known.test(name)) {
				throw new AgentConfigurationException(
						property + ": unknown tool '" + name + "'; tools of this agent: " + toolNames,
						"Use the name of one of the agent's tools, or give the agent that tool.");
			}
		}
	}

	/**
	 * A YAML list binds as a map with the keys 0, 1, 2...: its values are tool names.
	 * Otherwise the map is tool name to reason.
	 */
	private static Map<String, String> approvalReasons(Map<String, String> tools) {
		int index = 0;
		boolean list = !tools.isEmpty();
		for (String key : tools.keySet()) {
			list &= key.equals(String.valueOf(index++));
		}
		Map<String, String> reasons = new LinkedHashMap<>();
		for (Map.Entry<String, String> entry : tools.entrySet()) {
			if (list) {
				reasons.put(entry.getValue().strip(), DEFAULT_APPROVAL_REASON);
			}
			else {
				String reason = entry.getValue();
				reasons.put(entry.getKey().strip(),
						StringUtils.hasText(reason) ? reason.strip() : DEFAULT_APPROVAL_REASON);
			}
		}
		return reasons;
	}

	private ChatModel model(String property, String name) {
		return this.models.find(name.strip())
			.orElseThrow(() -> new AgentConfigurationException(property + ": unknown model '" + name
					+ "'; " + this.models.describeNames(),
					"Use the name of a model under agent.models, a provider under agent.providers or a ChatModel "
							+ "bean."));
	}

	@SuppressWarnings("unchecked")
	private static Class<? extends Throwable>[] exceptionTypes(String property, List<Class<? extends Throwable>> types) {
		for (int i = 0; i < types.size(); i++) {
			Class<?> type = types.get(i);
			if (type == null || !Throwable.class.isAssignableFrom(type)) {
				throw new AgentConfigurationException(
						property + "[" + i + "]: " + ((type != null) ? type.getName() : "null")
								+ " is not an exception type",
						"Use fully qualified names of exception classes, e.g. java.io.IOException.");
			}
		}
		return types.toArray(new Class[0]);
	}

	private static boolean isOn(MiddlewareProperties.@Nullable Switchable section) {
		return section != null && section.isEnabled();
	}

	private static void requireAny(String property, String names, @Nullable Object first, @Nullable Object second) {
		if (first == null && second == null) {
			throw invalid(property + ": set " + names, property);
		}
	}

	private static int atLeast(int value, int min, String property) {
		if (value < min) {
			throw invalid(property + " must be at least " + min + " (was " + value + ")", property);
		}
		return value;
	}

	private static long atLeast(long value, long min, String property) {
		if (value < min) {
			throw invalid(property + " must be at least " + min + " (was " + value + ")", property);
		}
		return value;
	}

	private static void positive(@Nullable Duration value, String property) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw invalid(property + " must be positive (was " + value + ")", property);
		}
	}

	private static void putIfSet(Map<PiiType, PiiStrategy> strategies, PiiType type, @Nullable PiiStrategy strategy) {
		if (strategy != null) {
			strategies.put(type, strategy);
		}
	}

	/** Build, reporting what the builder still rejects against the section. */
	private static AgentMiddleware build(String property, Supplier<AgentMiddleware> builder) {
		try {
			return builder.get();
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			throw new AgentConfigurationException(property + ": " + ex.getMessage(),
					"Fix the settings under " + property + ".", ex);
		}
	}

	private static AgentConfigurationException invalid(String message, String property) {
		return new AgentConfigurationException(message, "Correct " + property + ".");
	}

}
