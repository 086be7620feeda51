package dev.agcore.autoconfigure.a2a;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.a2a.client.A2aRemote;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the A2A client: remote agents that local agents call as
 * tools.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.a2a")
public class A2aClientProperties {

	/**
	 * Remote A2A agents, by name. Each is a tool of that name, which agents list in their
	 * tools like any other (an agent without a tools list gets them all).
	 */
	private Map<String, Remote> remotes = new LinkedHashMap<>();

	public Map<String, Remote> getRemotes() {
		return this.remotes;
	}

	public void setRemotes(Map<String, Remote> remotes) {
		this.remotes = remotes;
	}

	/**
	 * One remote A2A agent.
	 */
	public static class Remote {

		/**
		 * Base URL of the remote agent (its Agent Card is at
		 * {url}/.well-known/agent-card.json), or the URL of its Agent Card (a path ending in
		 * .json).
		 */
		private @Nullable String url;

		/**
		 * Headers sent with every request to the remote, such as Authorization: Bearer
		 * ${TOKEN}. Sent only to the origin of the url.
		 */
		private Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * How long a call of the remote may take, from sending the task to its answer.
		 */
		private Duration timeout = A2aRemote.DEFAULT_TIMEOUT;

		/**
		 * What the model is told the remote does, instead of the description and skills
		 * of its Agent Card.
		 */
		private @Nullable String description;

		public @Nullable String getUrl() {
			return this.url;
		}

		public void setUrl(@Nullable String url) {
			this.url = url;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public void setHeaders(Map<String, String> headers) {
			this.headers = headers;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public @Nullable String getDescription() {
			return this.description;
		}

		public void setDescription(@Nullable String description) {
			this.description = description;
		}

	}

}
