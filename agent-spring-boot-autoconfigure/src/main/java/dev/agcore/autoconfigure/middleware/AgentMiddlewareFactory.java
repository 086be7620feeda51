package dev.agcore.autoconfigure.middleware;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.builtin.ObservedMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolSpec;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Builds the middleware chain of each configured agent: the middleware beans (all of them,
 * or those listed in {@code agent.agents.<name>.middleware.use}) and the built-ins
 * switched on under {@code agent.agents.<name>.middleware}. Outermost first:
 * <ol>
 * <li>{@code pii}: every other middleware, bean middleware included, sees redacted input,
 * and its after-model hook has the last word on the answer;</li>
 * <li>{@code model-call-limit}, {@code tool-call-limit}: a refused call is never retried,
 * summarized, sent to a fallback or held for approval, and a retried call counts once;</li>
 * <li>the middleware beans, in {@code @Order} (or {@code use}) order;</li>
 * <li>{@code todo-list}: after the beans, so that the list it adds to the system prompt
 * is not lost to a {@code @DynamicPrompt} that replaces the prompt;</li>
 * <li>{@code summarization}, {@code context-editing}: they shrink the request that
 * reaches the model and any fallback;</li>
 * <li>{@code model-fallback}, {@code tool-retry}: next to the model and the tools, so
 * that every middleware above sees one call however often it is retried;</li>
 * <li>{@code human-in-the-loop}: innermost, so that a call is held for approval only once
 * every other middleware has let it through, and an approved call still goes through them
 * all.</li>
 * </ol>
 * With a {@link MeterRegistry}, every middleware is wrapped in an
 * {@link ObservedMiddleware}, counting its hooks in {@code agent.hook.events}.
 *
 * @since 0.1.0
 */
public final class AgentMiddlewareFactory {

	private final ConfigurableListableBeanFactory beanFactory;

	private final @Nullable MeterRegistry meterRegistry;

	private final BuiltinMiddleware builtins;

	private volatile @Nullable MiddlewareBeans beans;

	/**
	 * Create a factory.
	 * @param beanFactory the bean factory whose middleware beans to use
	 * @param models the models fallbacks and summaries may use
	 * @param meterRegistry the registry to record metrics in, or null for none
	 */
	public AgentMiddlewareFactory(ConfigurableListableBeanFactory beanFactory, ChatModelRegistry models,
			@Nullable MeterRegistry meterRegistry) {
		this.beanFactory = beanFactory;
		this.meterRegistry = meterRegistry;
		this.builtins = new BuiltinMiddleware(models, meterRegistry);
	}

	/**
	 * Return the middleware of a configured agent, outermost first.
	 * @param agentName the agent's name under {@code agent.agents}
	 * @param properties its middleware properties
	 * @param agentModel the agent's model, for summaries without a model of their own
	 * @return the middleware
	 * @throws dev.agcore.autoconfigure.AgentConfigurationException naming the property
	 * of an invalid setting
	 */
	public List<AgentMiddleware> create(String agentName, MiddlewareProperties properties, ChatModel agentModel) {
		String prefix = prefix(agentName);
		List<AgentMiddleware> chain = new ArrayList<>();
		add(chain, this.builtins.pii(prefix, properties.getPii()));
		add(chain, this.builtins.modelCallLimit(prefix, properties.getModelCallLimit()));
		add(chain, this.builtins.toolCallLimit(prefix, properties.getToolCallLimit()));
		List<String> use = properties.getUse();
		chain.addAll((use != null) ? beans().select(prefix + ".use", use, this.beanFactory) : beans().all());
		add(chain, this.builtins.todoList(properties.getTodoList()));
		add(chain, this.builtins.summarization(prefix, properties.getSummarization(), agentModel));
		add(chain, this.builtins.contextEditing(prefix, properties.getContextEditing()));
		add(chain, this.builtins.modelFallback(prefix, properties.getModelFallback(), agentModel));
		add(chain, this.builtins.toolRetry(prefix, properties.getToolRetry()));
		add(chain, this.builtins.humanInTheLoop(prefix, properties.getHumanInTheLoop()));
		return observe(chain);
	}

	/**
	 * Return the middleware of an agent that has no configuration: every middleware bean.
	 * @return the middleware
	 */
	public List<AgentMiddleware> createDefault() {
		return observe(beans().all());
	}

	/**
	 * Check that the tools the built-ins of an agent name are tools of the agent.
	 * @param agentName the agent's name under {@code agent.agents}
	 * @param properties its middleware properties
	 * @param agent the agent, built with the middleware of {@link #create}
	 * @throws dev.agcore.autoconfigure.AgentConfigurationException naming the property
	 * and the agent's tools when a tool is unknown
	 */
	public void checkTools(String agentName, MiddlewareProperties properties, Agent agent) {
		checkTools(agentName, properties, agent, (name) -> false);
	}

	/**
	 * Check that the tools the built-ins of an agent name are tools of the agent, or may
	 * become tools of it once the servers it gets tools from connect.
	 * @param agentName the agent's name under {@code agent.agents}
	 * @param properties its middleware properties
	 * @param agent the agent, built with the middleware of {@link #create}
	 * @param offeredLater whether a name may be offered by a server that is not connected
	 * yet, such as an MCP server's {@code filesystem__write_file}
	 * @throws dev.agcore.autoconfigure.AgentConfigurationException naming the property
	 * and the agent's tools when a tool is unknown
	 */
	public void checkTools(String agentName, MiddlewareProperties properties, Agent agent,
			Predicate<String> offeredLater) {
		List<String> names = agent.tools().stream().map(ToolSpec::name).toList();
		BuiltinMiddleware.checkTools(prefix(agentName), properties,
				(name) -> names.contains(name) || offeredLater.test(name), names);
	}

	private MiddlewareBeans beans() {
		MiddlewareBeans beans = this.beans;
		if (beans == null) {
			synchronized (this) {
				beans = this.beans;
				if (beans == null) {
					beans = MiddlewareBeans.collect(this.beanFactory);
					this.beans = beans;
				}
			}
		}
		return beans;
	}

	private List<AgentMiddleware> observe(List<AgentMiddleware> chain) {
		return (this.meterRegistry != null) ? ObservedMiddleware.observe(chain, this.meterRegistry)
				: List.copyOf(chain);
	}

	private static void add(List<AgentMiddleware> chain, @Nullable AgentMiddleware middleware) {
		if (middleware != null) {
			chain.add(middleware);
		}
	}

	private static String prefix(String agentName) {
		return "agent.agents." + agentName + ".middleware";
	}

}
