package dev.agcore.autoconfigure.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.middleware.AgentMiddlewareFactory;
import dev.agcore.autoconfigure.middleware.MiddlewareProperties;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.SessionMode;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.builtin.ModelFallbackMiddleware;
import dev.agcore.middleware.builtin.ObservedMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ModelAdapters;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservations;
import dev.agcore.plan.PlanParser;
import dev.agcore.plan.task.TaskAgent;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.TurnSummaryListener;
import dev.agcore.runtime.SubAgentTool;
import dev.agcore.tool.ToolDefinitionException;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Builds the agents of {@code agent.agents} from the models, tools, store and metrics of
 * the application. Every entry is checked and built when the factory is created, so a
 * mistake in any of them fails startup with the property that holds it.
 */
final class ConfiguredAgentFactory {

	private final ChatModelRegistry models;

	private final AgentTools tools;

	private final ConversationStore conversationStore;

	private final AgentMetrics metrics;

	private final AgentObservations observations;

	private final @Nullable AgentMiddlewareFactory middleware;

	private final AgentPrompts prompts;

	private final AgentMemorySettings memory;

	private final AgentRunners runners;

	private final @Nullable MeterRegistry meterRegistry;

	private final Map<String, Agent> agents = new LinkedHashMap<>();

	/** The built-in model adapters unless switched off, then the application's beans. */
	private final List<ModelAdapter> modelAdapters;

	private final Map<String, Map<String, ChatModel>> allowedModels = new LinkedHashMap<>();

	private final int maxSubAgentDepth;

	private final Map<String, AgentProperties.AgentSpec> specs;

	private final PlanParser planParser;

	private final List<TurnSummaryListener> turnSummaryListeners;

	private final AgentSafeguards safeguards;

	ConfiguredAgentFactory(AgentProperties properties, ChatModelRegistry models, AgentTools tools,
			ConversationStore conversationStore, AgentMetrics metrics, AgentObservations observations,
			@Nullable AgentMiddlewareFactory middleware,
			@Nullable MeterRegistry meterRegistry, List<ModelAdapter> adapterBeans, AgentPrompts prompts,
			AgentRunners runners, PlanParser planParser, List<TurnSummaryListener> turnSummaryListeners,
			AgentSafeguards safeguards) {
		this.safeguards = safeguards;
		this.planParser = planParser;
		this.turnSummaryListeners = List.copyOf(turnSummaryListeners);
		List<ModelAdapter> adapters = new ArrayList<>(
				properties.getModelAdapters().isEnabled() ? ModelAdapters.builtIns() : List.of());
		adapters.addAll(adapterBeans);
		this.modelAdapters = List.copyOf(adapters);
		this.models = models;
		this.tools = tools;
		this.conversationStore = conversationStore;
		this.metrics = metrics;
		this.observations = observations;
		this.middleware = middleware;
		this.meterRegistry = meterRegistry;
		this.memory = new AgentMemorySettings(models, meterRegistry);
		this.prompts = prompts;
		this.runners = runners;
		this.maxSubAgentDepth = properties.getMaxSubAgentDepth();
		atLeastOne("agent.max-sub-agent-depth", this.maxSubAgentDepth, SubAgentTool.DEFAULT_MAX_DEPTH);
		// an agent's sub-agents (its agents list) are built before it, each once
		Map<String, AgentProperties.AgentSpec> specs = properties.getAgents();
		this.specs = specs;
		SubAgents.check(specs);
		Map<String, Agent> built = new LinkedHashMap<>();
		for (String name : SubAgents.buildOrder(specs)) {
			built.put(name, build(name, specs.get(name), built));
		}
		specs.keySet().forEach((name) -> this.agents.put(name, built.get(name)));
	}

	Agent create(String name) {
		Agent agent = this.agents.get(name);
		if (agent == null) {
			throw new IllegalStateException("No agent '" + name + "' under agent.agents");
		}
		return agent;
	}

	/**
	 * Return the models a request to the given agent may name: its model, its fallback
	 * models and its {@code allowed-models}, by name.
	 */
	Map<String, ChatModel> allowedModels(String name) {
		return this.allowedModels.getOrDefault(name, Map.of());
	}

	Agent createDefault(String name) {
		// one provider or bean: a single named model on it is the one meant, else the provider itself
		Set<String> names = (this.models.modelNames().size() == 1) ? this.models.modelNames() : this.models.names();
		if (names.size() != 1) {
			throw new AgentConfigurationException(
					"No agent is configured under agent.agents and " + names.size() + " models are available "
							+ names + ", so no default agent can be created",
					"Configure an agent, e.g. agent.agents." + name + ".provider=<one of " + names + ">.");
		}
		List<AgentMiddleware> middleware = new ArrayList<>(
				(this.middleware != null) ? this.middleware.createDefault() : List.of());
		AgentBuilder builder = Agent.builder();
		// budget, audit and untrusted content: see AgentSafeguards
		this.safeguards.configure("agent.agents." + name, null, builder, middleware);
		// tools, permissions, secrets and stores: see AgentTools
		return this.tools.buildDefault(name, builder
			.name(name)
			.model(this.models.get(names.iterator().next()))
			.modelAdapters(this.modelAdapters)
			.basePrompt(this.prompts.baseSystemPrompt())
			.conversationStore(this.conversationStore)
			.metrics(this.metrics)
			.observations(this.observations)
			.turnSummaryListeners(this.turnSummaryListeners)
			.middleware(middleware));
	}

	/**
	 * Return a registry of the given agents, checking that each configured agent is
	 * among them.
	 */
	AgentRegistry registry(Collection<Agent> all) {
		Set<String> names = new LinkedHashSet<>();
		all.forEach((agent) -> names.add(agent.name()));
		for (String name : this.agents.keySet()) {
			if (!names.contains(name)) {
				throw new AgentConfigurationException("agent.agents." + name + ": the bean name '" + name
						+ "' is already used by another bean, so the configured agent could not be registered",
						"Rename that bean or the agent.");
			}
		}
		// configured agents in the order of agent.agents, then Agent beans of the application:
		// the order of /agents and of the actuator endpoint stays the same from run to run
		List<Agent> ordered = new ArrayList<>();
		for (String name : this.agents.keySet()) {
			all.stream().filter((agent) -> agent.name().equals(name)).findFirst().ifPresent(ordered::add);
		}
		all.stream().filter((agent) -> !this.agents.containsKey(agent.name())).forEach(ordered::add);
		try {
			return new AgentRegistry(ordered);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(ex.getMessage() + ": two Agent beans report the same name",
					"Give each Agent bean and each agent.agents entry its own name.", ex);
		}
	}

	private static void atLeastOne(String property, int value, String action) {
		if (value < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + value + ")", action);
		}
	}

	private static void atLeastOne(String property, int value, int example) {
		atLeastOne(property, value, "Set " + property + " to a positive number, e.g. " + example + " (the default).");
	}

	private static Duration positive(String property, @Nullable Duration value, String meaning) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new AgentConfigurationException(property + " must be positive (was " + value + ")",
					"Set " + property + " to " + meaning + ".");
		}
		return value;
	}

	private Agent build(String name, AgentProperties.AgentSpec spec, Map<String, Agent> built) {
		String prefix = "agent.agents." + name;
		String modelName = modelName(prefix, spec);
		String modelProperty = prefix + (StringUtils.hasText(spec.getProvider()) ? ".provider" : ".model");
		ChatModel model = model(prefix, modelProperty, modelName);
		AgentMiddleware fallback = fallback(prefix, spec, model);
		Map<String, ChatModel> allowed = allowed(prefix, spec,
				(modelName != null) ? modelName : this.models.names().iterator().next(), model);
		this.allowedModels.put(name, allowed);
		atLeastOne(prefix + ".max-iterations", spec.getMaxIterations(),
				"Set " + prefix + ".max-iterations to the number of model calls a turn may make, e.g. 10.");
		atLeastOne(prefix + ".max-tool-calls-per-response", spec.getMaxToolCallsPerResponse(), 32);
		atLeastOne(prefix + ".max-parallel-tool-calls", spec.getMaxParallelToolCalls(), 8);
		Duration toolTimeout = positive(prefix + ".tool-timeout", spec.getToolTimeout(), "how long a tool may run, e.g. 30s");
		Duration turnTimeout = positive(prefix + ".turn-timeout", spec.getTurnTimeout(), "how long a turn may run, e.g. 5m");
		// middleware: beans and built-ins, see AgentMiddlewareFactory
		List<AgentMiddleware> middleware = new ArrayList<>((this.middleware != null)
				? this.middleware.create(name, spec.getMiddleware(), model) : List.of());
		// a system prompt that is an MCP server's prompt is set first, so every other middleware sees it
		Optional<AgentMiddleware> serverPrompt = this.tools.systemPrompt(prefix + ".system-prompt",
				spec.getSystemPrompt());
		serverPrompt.ifPresent((prompt) -> middleware.add(0, prompt));
		// memory: the context window, and compaction innermost, on the conversation the others left
		ContextWindow window = this.memory.window(prefix, spec.getMemory().getWindow(), model);
		if (fallback != null) {
			// innermost but compaction: each fallback gets the request the other middleware shaped
			middleware.add(fallback);
		}
		AgentMiddleware compaction = this.memory.compaction(prefix, spec.getMemory().getCompaction(), model);
		if (compaction != null) {
			middleware.add(compaction);
		}
		// tools, permissions, secrets and stores: see AgentTools; prompt layers: see AgentPrompts
		AgentBuilder builder = Agent.builder();
		// budget (first of the middleware), audit and untrusted content: see AgentSafeguards
		this.safeguards.configure(prefix, spec, builder, middleware);
		this.prompts.configure(prefix, spec, builder);
		this.runners.configure(prefix, spec, builder);
		List<SubAgentTool> subAgents = subAgents(prefix, spec, built);
		builder.tools(subAgents);
		Agent agent = withSubAgents(prefix, subAgents, () -> this.tools.build(name, spec, builder
			.name(name)
			.model(model)
			.models(allowed)
			.modelAdapters(this.modelAdapters)
			.systemPrompt(serverPrompt.isPresent() ? null : spec.getSystemPrompt())
			.maxIterations(spec.getMaxIterations())
			.toolTimeout(toolTimeout)
			.turnTimeout(turnTimeout)
			.sessionContext(spec.getMemory().isSessionContext())
			.sessionMode(sessionMode(prefix, spec))
			.maxToolCallsPerResponse(spec.getMaxToolCallsPerResponse())
			.maxParallelToolCalls(spec.getMaxParallelToolCalls())
			.conversationStore(this.conversationStore)
			.metrics(this.metrics)
			.observations(this.observations)
			.turnSummaryListeners(this.turnSummaryListeners)
			.contextWindow(window)
			.middleware(middleware)));
		if (this.middleware != null) {
			this.middleware.checkTools(name, spec.getMiddleware(), agent, this.tools::mayOffer);
		}
		AgentRunners.checkCommands(prefix, spec, (tool) -> agent.tools().stream()
			.anyMatch((offered) -> offered.name().equals(tool)) || this.tools.mayOffer(tool));
		return planning(prefix, spec.getPlan(), agent, model);
	}

	/** The agent itself, or a {@link TaskAgent} around it when it plans. */
	private Agent planning(String prefix, AgentProperties.PlanSettings plan, Agent agent, ChatModel model) {
		if (!plan.isEnabled()) {
			return agent;
		}
		atLeastOne(prefix + ".plan.max-steps", plan.getMaxSteps(), TaskAgent.DEFAULT_MAX_STEPS);
		atLeastOne(prefix + ".plan.max-replans", plan.getMaxReplans(), TaskAgent.DEFAULT_MAX_REPLANS);
		atLeastOne(prefix + ".plan.parallelism", plan.getParallelism(), 1);
		ChatModel planningModel = StringUtils.hasText(plan.getModel())
				? named(prefix + ".plan.model", plan.getModel(), "Set " + prefix + ".plan.model to the name of a "
						+ "model, provider or ChatModel bean, or remove it to plan with the agent's model.")
				: model;
		return TaskAgent.builder(agent)
			.planningModel(planningModel)
			.parser(this.planParser)
			.maxSteps(plan.getMaxSteps())
			.replan(plan.isReplan())
			.maxReplans(plan.getMaxReplans())
			.parallelism(plan.getParallelism())
			.metrics(this.metrics)
			.build();
	}

	/** The agent's {@code session-mode}, named in the failure when unknown. */
	static SessionMode sessionMode(String prefix, AgentProperties.AgentSpec spec) {
		String value = spec.getSessionMode().strip();
		for (SessionMode mode : SessionMode.values()) {
			if (mode.name().equalsIgnoreCase(value)) {
				return mode;
			}
		}
		throw new AgentConfigurationException(prefix + ".session-mode: unknown mode '" + spec.getSessionMode() + "'",
				"Set " + prefix + ".session-mode to shared (the default) or isolated.");
	}

	/** The agents of the agent's {@code agents} list as its tools; {@link SubAgents} checked the names. */
	private List<SubAgentTool> subAgents(String prefix, AgentProperties.AgentSpec spec, Map<String, Agent> built) {
		List<SubAgentTool> tools = new ArrayList<>();
		List<String> names = spec.getAgents();
		for (int i = 0; i < names.size(); i++) {
			String child = names.get(i).strip();
			try {
				tools.add(SubAgentTool.builder(built.get(child))
					.description(this.specs.get(child).getDescription())
					.maxDepth(this.maxSubAgentDepth)
					.build());
			}
			catch (IllegalArgumentException ex) {
				throw new AgentConfigurationException(prefix + ".agents[" + i + "]: " + ex.getMessage(),
						"Rename the agent '" + child + "' to letters, digits, '_' and '-' (at most 64), as tool "
								+ "names must be.",
						ex);
			}
		}
		return tools;
	}

	/** Build the agent; a sub-agent whose name another of its tools has fails naming the property. */
	private static Agent withSubAgents(String prefix, List<SubAgentTool> subAgents, Supplier<Agent> build) {
		try {
			return build.get();
		}
		catch (ToolDefinitionException ex) {
			for (SubAgentTool subAgent : subAgents) {
				String name = subAgent.spec().name();
				if (String.valueOf(ex.getMessage()).contains("'" + name + "'")) {
					throw new AgentConfigurationException(
							prefix + ".agents: the agent '" + name + "' is offered as a tool of that name, which "
									+ "another tool of the agent has: " + ex.getMessage(),
							"Leave the tool '" + name + "' out of " + prefix + ".tools, or rename one of them.", ex);
				}
			}
			throw ex;
		}
	}

	/** Return the name of the agent's model: {@code model}, or its older alias {@code provider}. */
	private static @Nullable String modelName(String prefix, AgentProperties.AgentSpec spec) {
		String model = StringUtils.hasText(spec.getModel()) ? spec.getModel().strip() : null;
		String provider = StringUtils.hasText(spec.getProvider()) ? spec.getProvider().strip() : null;
		if (model != null && provider != null) {
			throw new AgentConfigurationException(
					prefix + ".model ('" + model + "') and " + prefix + ".provider ('" + provider
							+ "') are both set",
					"Remove " + prefix + ".provider: " + prefix + ".model replaces it and takes the name of a model, "
							+ "provider or ChatModel bean.");
		}
		return (model != null) ? model : provider;
	}

	private ChatModel model(String prefix, String property, @Nullable String name) {
		String action = "Set " + prefix + ".model to the name of a model under agent.models, a provider under "
				+ "agent.providers or a ChatModel bean.";
		if (name == null) {
			Set<String> names = this.models.names();
			if (names.size() == 1) {
				return this.models.get(names.iterator().next());
			}
			throw new AgentConfigurationException(prefix + ".model must be set when there is not exactly one "
					+ "model; " + this.models.describeNames(), action);
		}
		return named(property, name, action);
	}

	private ChatModel named(String property, String name, String action) {
		return this.models.find(name.strip())
			.orElseThrow(() -> new AgentConfigurationException(
					property + ": unknown model '" + name + "'; " + this.models.describeNames(), action));
	}

	private @Nullable AgentMiddleware fallback(String prefix, AgentProperties.AgentSpec spec, ChatModel model) {
		List<String> names = spec.getFallbackModels();
		if (names.isEmpty()) {
			return null;
		}
		MiddlewareProperties.ModelFallback configured = spec.getMiddleware().getModelFallback();
		if (configured != null && configured.isEnabled()) {
			// two chains of fallbacks would nest: the order of attempts would be a surprise
			throw new AgentConfigurationException(
					prefix + ".fallback-models and " + prefix + ".middleware.model-fallback are both set",
					"Keep one: " + prefix + ".fallback-models for the default fallback on retryable errors, or "
							+ prefix + ".middleware.model-fallback to also choose the failures that fall back.");
		}
		List<ChatModel> fallbacks = new ArrayList<>();
		for (int i = 0; i < names.size(); i++) {
			fallbacks.add(named(prefix + ".fallback-models[" + i + "]", names.get(i),
					"Set " + prefix + ".fallback-models to names of models, providers or ChatModel beans."));
		}
		AgentMiddleware middleware = ModelFallbackMiddleware.builder(fallbacks)
			.primary(model)
			.meterRegistry(this.meterRegistry)
			.build();
		// observed like the other built-ins
		return (this.meterRegistry != null) ? ObservedMiddleware.observe(List.of(middleware), this.meterRegistry).get(0)
				: middleware;
	}

	private Map<String, ChatModel> allowed(String prefix, AgentProperties.AgentSpec spec, String modelName,
			ChatModel model) {
		Map<String, ChatModel> allowed = new LinkedHashMap<>();
		allowed.put(modelName, model);
		for (String name : spec.getFallbackModels()) {
			allowed.put(name.strip(), this.models.get(name.strip()));
		}
		List<String> names = spec.getAllowedModels();
		for (int i = 0; i < names.size(); i++) {
			allowed.put(names.get(i).strip(), named(prefix + ".allowed-models[" + i + "]", names.get(i),
					"Set " + prefix + ".allowed-models to names of models, providers or ChatModel beans."));
		}
		return Collections.unmodifiableMap(allowed);
	}

}
