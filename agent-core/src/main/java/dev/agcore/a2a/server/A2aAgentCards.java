package dev.agcore.a2a.server;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolSpec;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.TransportProtocol;
import io.a2a.util.Utils;

/**
 * The Agent Card of an agent: its name and description, the URL of its JSON-RPC
 * endpoint, streaming, and a skill for each of its tools (or one skill, the agent's
 * description, for an agent without tools).
 *
 * @since 0.1.0
 */
public final class A2aAgentCards {

	/** The protocol version the server speaks. */
	public static final String PROTOCOL_VERSION = "0.3.0";

	/** The most characters a skill's description keeps of a tool's description. */
	static final int MAX_DESCRIPTION_LENGTH = 1_000;

	private static final List<String> INPUT_MODES = List.of("text/plain", "application/json");

	private static final List<String> OUTPUT_MODES = List.of("text/plain");

	private A2aAgentCards() {
	}

	/**
	 * The Agent Card of an agent, as JSON.
	 * @param agent the agent
	 * @param description what the agent does
	 * @param url the absolute URL of the agent's JSON-RPC endpoint
	 * @param version the version of the agent the card shows
	 * @return the card's JSON
	 */
	public static String card(Agent agent, String description, String url, String version) {
		return Utils.toJsonString(of(agent, description, url, version));
	}

	static AgentCard of(Agent agent, String description, String url, String version) {
		return new AgentCard.Builder().name(agent.name())
			.description(description)
			.url(url)
			.version(version)
			.protocolVersion(PROTOCOL_VERSION)
			.preferredTransport(TransportProtocol.JSONRPC.asString())
			.capabilities(new AgentCapabilities.Builder().streaming(true)
				.pushNotifications(false)
				.stateTransitionHistory(false)
				.build())
			.defaultInputModes(INPUT_MODES)
			.defaultOutputModes(OUTPUT_MODES)
			.skills(skills(agent, description))
			.build();
	}

	private static List<AgentSkill> skills(Agent agent, String description) {
		List<AgentSkill> skills = new ArrayList<>();
		for (ToolSpec tool : agent.tools()) {
			skills.add(new AgentSkill.Builder().id(tool.name())
				.name(tool.name())
				.description(bounded(tool.description().isBlank() ? tool.name() : tool.description()))
				.tags(List.of("tool"))
				.build());
		}
		if (skills.isEmpty()) {
			skills.add(new AgentSkill.Builder().id(agent.name())
				.name(agent.name())
				.description(bounded(description))
				.tags(List.of("agent"))
				.build());
		}
		return skills;
	}

	private static String bounded(String text) {
		return (text.length() <= MAX_DESCRIPTION_LENGTH) ? text : text.substring(0, MAX_DESCRIPTION_LENGTH - 1) + "…";
	}

}
