package dev.agcore.autoconfigure.web.openai;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the OpenAI-compatible endpoint ({@code agent.web.openai.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.web.openai")
public class OpenAiProperties {

	/**
	 * Whether to serve the OpenAI-compatible routes (POST {base-path}/v1/chat/completions,
	 * GET {base-path}/v1/models), where a request's model names an agent. Needs a reactive
	 * web application; secure the routes as any other.
	 */
	private boolean enabled;

	/**
	 * Path the /v1 routes sit under; empty for /v1 at the root, so that an OpenAI client's
	 * base URL is http://host:port/v1.
	 */
	private String basePath = "";

	/**
	 * Whether to show the tool calls an agent made inside a turn as tool_calls of the
	 * answer (and of the stream's deltas). The agent has run them already: a client must
	 * not run them again, which most clients would, so keep this off unless yours only
	 * displays them.
	 */
	private boolean exposeToolCalls;

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

	public boolean isExposeToolCalls() {
		return this.exposeToolCalls;
	}

	public void setExposeToolCalls(boolean exposeToolCalls) {
		this.exposeToolCalls = exposeToolCalls;
	}

}
