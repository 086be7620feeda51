package dev.agcore.autoconfigure.mcp.server;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.support.PropertyChecks;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.mcp.server.McpServerTools;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.secret.SecretResolver;

import org.springframework.util.StringUtils;

/**
 * What the MCP server offers: the tools of {@code agent.mcp.server.tools} and the agents
 * of {@code agent.mcp.server.agents}, each checked so that a mistake fails startup naming
 * the property. Calls of the tools run with the application's permission policies,
 * secret resolver and store, as the agents' calls do.
 */
final class McpServerExposure {

	private static final String TOOLS = "agent.mcp.server.tools";

	private static final String AGENTS = "agent.mcp.server.agents";

	private McpServerExposure() {
	}

	static McpServerTools tools(McpServerProperties properties, AgentTools agentTools, AgentRegistry agents,
			SecretResolver secretResolver, KeyValueStore store, Auditor auditor) {
		List<ToolCallback> tools = agentTools.select(TOOLS, properties.getTools());
		List<Agent> offered = agents(properties.getAgents(), agents);
		if (tools.isEmpty() && offered.isEmpty()) {
			throw new AgentConfigurationException(
					"agent.mcp.server.enabled is true, but neither " + TOOLS + " nor " + AGENTS
							+ " names anything to offer",
					"List the tools (names, globs such as notes_* or groups such as group:notes) under " + TOOLS
							+ " and the agents under " + AGENTS + ", or set agent.mcp.server.enabled=false.");
		}
		for (Agent agent : offered) {
			for (ToolCallback tool : tools) {
				if (tool.spec().name().equals(agent.name())) {
					throw new AgentConfigurationException("The tool '" + agent.name() + "' of " + TOOLS
							+ " and the agent '" + agent.name() + "' of " + AGENTS + " would both be the MCP tool '"
							+ agent.name() + "'", "Offer only one of them, or rename the tool or the agent.");
				}
			}
		}
		return McpServerTools.builder()
			.tools(tools)
			.agents(offered)
			.permissionPolicy(agentTools.permissionPolicy())
			.secretResolver(secretResolver)
			.store(store)
			.auditor(auditor)
			.toolTimeout(PropertyChecks.positive("agent.mcp.server.tool-timeout", properties.getToolTimeout()))
			.build();
	}

	private static List<Agent> agents(List<String> names, AgentRegistry registry) {
		List<Agent> agents = new ArrayList<>(names.size());
		for (String name : names) {
			if (!StringUtils.hasText(name)) {
				throw new AgentConfigurationException(AGENTS + " has an empty entry",
						"Remove the empty entry from " + AGENTS + ".");
			}
			Agent agent = registry.find(name.strip())
				.orElseThrow(() -> new AgentConfigurationException(
						AGENTS + ": unknown agent '" + name.strip() + "'; known agents: "
								+ registry.all().stream().map(Agent::name).sorted().toList(),
						"Use the names of agents under agent.agents (or of Agent beans)."));
			if (!agents.contains(agent)) {
				agents.add(agent);
			}
		}
		return agents;
	}

}
