package dev.agcore.autoconfigure.agent;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;

import org.springframework.util.StringUtils;

/**
 * The {@code agents} lists of {@code agent.agents}: each entry names another configured
 * agent, offered to the listing agent as a tool ({@link dev.agcore.runtime.SubAgentTool}).
 * Checked before any agent is built, so an unknown name, an agent listing itself or a
 * cycle fails startup naming the property; sub-agents are built before the agents that
 * list them.
 */
final class SubAgents {

	private SubAgents() {
	}

	/**
	 * Check every {@code agents} list: entries name other configured agents, once each,
	 * and no agent reaches itself through them.
	 * @param specs the configured agents, by name
	 * @throws AgentConfigurationException naming the property otherwise
	 */
	static void check(Map<String, AgentProperties.AgentSpec> specs) {
		specs.forEach((name, spec) -> {
			String property = "agent.agents." + name + ".agents";
			Set<String> seen = new LinkedHashSet<>();
			List<String> entries = spec.getAgents();
			for (int i = 0; i < entries.size(); i++) {
				String entry = entries.get(i);
				String child = StringUtils.hasText(entry) ? entry.strip() : "";
				String at = property + "[" + i + "]";
				if (child.isEmpty()) {
					throw new AgentConfigurationException(at + " is empty",
							"Remove the empty entry from " + property + ".");
				}
				if (child.equals(name)) {
					throw new AgentConfigurationException(at + ": the agent '" + name + "' cannot be its own sub-agent",
							"Remove '" + name + "' from " + property + ".");
				}
				if (!specs.containsKey(child)) {
					throw new AgentConfigurationException(
							at + ": unknown agent '" + child + "'; the agents of agent.agents are " + specs.keySet(),
							"Set " + property + " to names of other agents under agent.agents.");
				}
				if (!seen.add(child)) {
					throw new AgentConfigurationException(at + ": the agent '" + child + "' is listed twice",
							"List each sub-agent once in " + property + ".");
				}
			}
		});
		for (String name : specs.keySet()) {
			List<String> path = new ArrayList<>();
			path.add(name);
			findCycle(specs, name, path);
		}
	}

	// depth first from the path's last agent; agents are few and lists short
	private static void findCycle(Map<String, AgentProperties.AgentSpec> specs, String start, List<String> path) {
		String current = path.get(path.size() - 1);
		for (String entry : specs.get(current).getAgents()) {
			String child = entry.strip();
			if (child.equals(start)) {
				path.add(child);
				throw new AgentConfigurationException(
						"agent.agents." + start + ".agents: the sub-agents form a cycle " + String.join(" -> ", path),
						"Remove one of the entries of that cycle from the agents lists of agent.agents: an agent "
								+ "cannot be its own sub-agent, directly or not.");
			}
			if (!path.contains(child)) {
				path.add(child);
				findCycle(specs, start, path);
				path.remove(path.size() - 1);
			}
		}
	}

	/**
	 * Return the configured agents in an order that builds every sub-agent before the
	 * agents listing it, otherwise as configured.
	 * @param specs the checked agents, by name
	 * @return the names
	 */
	static List<String> buildOrder(Map<String, AgentProperties.AgentSpec> specs) {
		Set<String> order = new LinkedHashSet<>();
		specs.keySet().forEach((name) -> visit(specs, name, order));
		return List.copyOf(order);
	}

	private static void visit(Map<String, AgentProperties.AgentSpec> specs, String name, Set<String> order) {
		if (order.contains(name)) {
			return;
		}
		for (String child : specs.get(name).getAgents()) {
			visit(specs, child.strip(), order);
		}
		order.add(name);
	}

}
