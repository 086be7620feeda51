package dev.agcore.runtime;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The agents of an application, by name.
 */
public final class AgentRegistry {

	private final Map<String, Agent> agents;

	public AgentRegistry(Collection<? extends Agent> agents) {
		Map<String, Agent> byName = new LinkedHashMap<>();
		for (Agent agent : agents) {
			if (byName.putIfAbsent(agent.name(), agent) != null) {
				throw new IllegalArgumentException("Duplicate agent name '" + agent.name() + "'");
			}
		}
		this.agents = Collections.unmodifiableMap(byName);
	}

	public Optional<Agent> find(String name) {
		return Optional.ofNullable(this.agents.get(name));
	}

	/**
	 * Return the agent with the given name.
	 * @param name the agent name
	 * @return the agent
	 * @throws IllegalArgumentException naming the known agents if there is none by that name
	 */
	public Agent get(String name) {
		Agent agent = this.agents.get(name);
		if (agent == null) {
			throw new IllegalArgumentException("No agent named '" + name + "'; known agents: " + this.agents.keySet());
		}
		return agent;
	}

	/**
	 * Return a session of these agents, whose turns may go to any of them.
	 * @param sessionId the session
	 * @return a new session object; its counts start at zero, whatever the session holds
	 * @throws IllegalArgumentException if the id is blank or too long
	 */
	public AgentSession session(String sessionId) {
		return new AgentSession(this, sessionId);
	}

		public Collection<Agent> all() {
		return this.agents.values();
	}

}
