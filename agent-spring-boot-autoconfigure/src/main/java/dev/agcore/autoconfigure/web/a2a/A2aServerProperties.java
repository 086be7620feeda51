package dev.agcore.autoconfigure.web.a2a;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the A2A server ({@code agent.web.a2a.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.web.a2a")
public class A2aServerProperties {

	/**
	 * Whether to serve the A2A protocol (version 0.3, JSON-RPC): for each exposed agent, a
	 * JSON-RPC endpoint at {base-path}/{agent} and its Agent Card at
	 * {base-path}/{agent}/.well-known/agent-card.json. Needs a reactive web application;
	 * secure the routes as any other.
	 */
	private boolean enabled;

	/**
	 * Path the agents' A2A endpoints sit under.
	 */
	private String basePath = "/a2a";

	/**
	 * Names of the agents to expose over A2A; empty for all agents.
	 */
	private List<String> agents = new ArrayList<>();

	/**
	 * The public URL the application is reached at, such as https://agents.example.com,
	 * for the endpoint URL the Agent Cards show. When not set, the URL is that of the
	 * request for the card (behind a proxy, set server.forward-headers-strategy so it is
	 * the public one).
	 */
	private @Nullable String publicUrl;

	/**
	 * The version of the agents the Agent Cards show.
	 */
	private String version = "1.0.0";

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getBasePath() {
		return this.basePath;
	}

	public void setBasePath(String basePath) {
		this.basePath = basePath;
	}

	public List<String> getAgents() {
		return this.agents;
	}

	public void setAgents(List<String> agents) {
		this.agents = agents;
	}

	public @Nullable String getPublicUrl() {
		return this.publicUrl;
	}

	public void setPublicUrl(@Nullable String publicUrl) {
		this.publicUrl = publicUrl;
	}

	public String getVersion() {
		return this.version;
	}

	public void setVersion(String version) {
		this.version = version;
	}

}
