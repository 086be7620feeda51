package dev.agcore.autoconfigure.agent;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ToolCallFormat;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.Retriever;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.Runner;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.StringUtils;

/**
 * The runner of a configured agent ({@code runner}, {@code fallback-runner},
 * {@code runner-commands}, {@code retrieval-qa}) and its {@code tool-call-format}, checked so that a mistake fails startup
 * naming its property.
 */
final class AgentRunners {

	private static final String RUNNERS = Arrays.stream(Runner.values())
		.map(Runner::id)
		.collect(Collectors.joining(", "));

	private final @Nullable ListableBeanFactory beanFactory;

	/**
	 * Create the runner settings of configured agents.
	 * @param beanFactory where the retrievers of retrieval-qa agents are found, null for
	 * none
	 */
	AgentRunners(@Nullable ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/** Set the agent's runner and tool-call format on the builder. */
	void configure(String prefix, AgentProperties.AgentSpec spec, AgentBuilder builder) {
		builder.toolCallFormat(toolCallFormat(prefix + ".tool-call-format", spec.getToolCallFormat()));
		Runner runner = runner(prefix + ".runner", spec.getRunner());
		builder.runner(runner);
		if (StringUtils.hasText(spec.getFallbackRunner())) {
			String property = prefix + ".fallback-runner";
			Runner fallback = runner(property, spec.getFallbackRunner());
			if (runner != Runner.REACT) {
				throw new AgentConfigurationException(
						property + " is set but " + prefix + ".runner is " + runner + ": only react falls back",
						"Remove " + property + ", or set " + prefix + ".runner to react.");
			}
			if (fallback != Runner.PLANNER) {
				throw new AgentConfigurationException(property + " is " + fallback + ": only planner can be a fallback",
						"Set " + property + " to planner, or remove it.");
			}
			builder.fallbackRunner(fallback);
		}
		Map<String, String> commands = spec.getRunnerCommands();
		if (!commands.isEmpty() && runner != Runner.PLANNER && !StringUtils.hasText(spec.getFallbackRunner())) {
			throw new AgentConfigurationException(
					prefix + ".runner-commands is set but " + prefix + ".runner is " + runner
							+ ": only the planner runner reads commands",
					"Set " + prefix + ".runner to planner (or " + prefix + ".fallback-runner), or remove "
							+ prefix + ".runner-commands.");
		}
		builder.runnerCommands(commands);
		AgentProperties.RetrievalQa qa = spec.getRetrievalQa();
		if (qa.getTopK() < 1) {
			throw new AgentConfigurationException(prefix + ".retrieval-qa.top-k must be at least 1 (was "
					+ qa.getTopK() + ")", "Set " + prefix + ".retrieval-qa.top-k to e.g. 5 (the default).");
		}
		if (!(qa.getMinScore() >= 0)) {
			throw new AgentConfigurationException(prefix + ".retrieval-qa.min-score must be at least 0 (was "
					+ qa.getMinScore() + ")", "Set " + prefix + ".retrieval-qa.min-score to e.g. 0.1 (the default).");
		}
		if (runner == Runner.RETRIEVAL_QA) {
			builder.retriever(retriever(prefix, qa.getRetriever()))
				.retrievalTopK(qa.getTopK())
				.retrievalMinScore(qa.getMinScore());
		}
	}

	/**
	 * Check that each command names a tool the agent has or may be offered.
	 * @param prefix the agent's property prefix
	 * @param spec the agent's settings
	 * @param hasTool whether the agent has, or may be offered, a tool by name
	 */
	static void checkCommands(String prefix, AgentProperties.AgentSpec spec, Predicate<String> hasTool) {
		spec.getRunnerCommands().forEach((command, tool) -> {
			if (!hasTool.test(tool.strip())) {
				throw new AgentConfigurationException(
						prefix + ".runner-commands." + command + ": the agent has no tool '" + tool + "'",
						"Set it to the name of one of the agent's tools, or add that tool to " + prefix + ".tools.");
			}
		});
	}

	private static ToolCallFormat toolCallFormat(String property, String value) {
		ToolCallFormat format = ToolCallFormat.find(value);
		if (format == null) {
			throw new AgentConfigurationException(property + ": unknown tool-call format '" + value + "'",
					"Set " + property + " to one of native, xml, auto.");
		}
		return format;
	}

	private static Runner runner(String property, String value) {
		Runner runner = Runner.find(value);
		if (runner == null) {
			throw new AgentConfigurationException(property + ": unknown runner '" + value + "'",
					"Set " + property + " to one of " + RUNNERS + ".");
		}
		return runner;
	}

	private Retriever retriever(String prefix, @Nullable String name) {
		String property = prefix + ".retrieval-qa.retriever";
		if (this.beanFactory == null) {
			throw noRetriever(prefix);
		}
		if (StringUtils.hasText(name)) {
			try {
				return this.beanFactory.getBean(name.strip(), Retriever.class);
			}
			catch (BeansException ex) {
				throw new AgentConfigurationException(property + ": no Retriever bean named '" + name + "' ("
						+ ex.getMessage() + ")", "Set " + property + " to the bean name of a Retriever.", ex);
			}
		}
		// an index is the part of a knowledge store that searches: the store is the retriever meant
		Map<String, Retriever> candidates = this.beanFactory.getBeansOfType(Retriever.class)
			.entrySet()
			.stream()
			.filter((entry) -> !(entry.getValue() instanceof DocumentIndex))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
		if (candidates.size() == 1) {
			return candidates.values().iterator().next();
		}
		if (candidates.isEmpty()) {
			throw noRetriever(prefix);
		}
		throw new AgentConfigurationException(prefix + ".runner is retrieval-qa and there are several Retriever beans "
				+ candidates.keySet().stream().sorted().toList(), "Set " + property + " to the bean name of one.");
	}

	private static AgentConfigurationException noRetriever(String prefix) {
		return new AgentConfigurationException(prefix + ".runner is retrieval-qa but there is no retriever",
				"Set agent.knowledge.path to a folder of Markdown files for the knowledge store, or define a "
						+ "Retriever bean.");
	}

}
