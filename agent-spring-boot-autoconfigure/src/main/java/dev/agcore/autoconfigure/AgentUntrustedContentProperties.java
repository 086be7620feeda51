package dev.agcore.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * How one agent marks tool results and retrieved documents as untrusted
 * ({@code agent.agents.<name>.untrusted-content.*}); what is not set comes from
 * {@code agent.untrusted-content.*}.
 *
 * @since 0.1.0
 */
public class AgentUntrustedContentProperties {

	/**
	 * Whether the agent's tool results and retrieved documents are sent inside labelled
	 * blocks; agent.untrusted-content.enabled when not set.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Tag of the agent's blocks; agent.untrusted-content.tag when not set.
	 */
	private @Nullable String tag;

	/**
	 * Notice added to the agent's system prompt; agent.untrusted-content.notice when not
	 * set.
	 */
	private @Nullable String notice;

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getTag() {
		return this.tag;
	}

	public void setTag(@Nullable String tag) {
		this.tag = tag;
	}

	public @Nullable String getNotice() {
		return this.notice;
	}

	public void setNotice(@Nullable String notice) {
		this.notice = notice;
	}

}
