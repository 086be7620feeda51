package dev.agcore.autoconfigure.agent;

import java.util.Map;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Logs at INFO, once every singleton is created, the agents of the application: model,
 * runner, tool and middleware counts, on the {@value #LOGGER} logger. No prompt is logged.
 */
final class AgentStartupLog implements SmartInitializingSingleton {

	/** The logger of the startup lines. */
	static final String LOGGER = "dev.agcore.agents";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER);

	private final AgentRegistry agents;

	private final Map<String, AgentProperties.AgentSpec> specs;

	AgentStartupLog(AgentRegistry agents, Map<String, AgentProperties.AgentSpec> specs) {
		this.agents = agents;
		this.specs = specs;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (!logger.isInfoEnabled()) {
			return;
		}
		logger.info("{} agent(s) ready: {}", this.agents.all().size(),
				this.agents.all().stream().map(Agent::name).toList());
		for (Agent agent : this.agents.all()) {
			logger.info(describe(agent));
		}
	}

	private String describe(Agent agent) {
		AgentProperties.AgentSpec spec = this.specs.get(agent.name());
		StringBuilder line = new StringBuilder("Agent '").append(agent.name())
			.append("': model=")
			.append(agent.model().providerName())
			.append('/')
			.append(agent.model().modelName());
		// an agent the application built itself has no configured runner to show
		if (spec != null) {
			line.append(" runner=").append(spec.getRunner());
			if (spec.getFallbackRunner() != null) {
				line.append(" fallback_runner=").append(spec.getFallbackRunner());
			}
		}
		return line.append(" tools=")
			.append(agent.tools().size())
			.append(" middleware=")
			.append(agent.middleware().size())
			.append(" max_iterations=")
			.append(agent.maxIterations())
			.append(" turn_timeout=")
			.append(agent.turnTimeout())
			.toString();
	}

}
