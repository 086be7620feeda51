package dev.agcore.autoconfigure.prompt;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How tool results and retrieved documents are marked as untrusted for the model, for
 * every agent ({@code agent.untrusted-content.*}); an agent's own
 * {@code agent.agents.<name>.untrusted-content.*} overrides it.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.untrusted-content")
public class UntrustedContentProperties {

	/**
	 * Whether tool results and retrieved documents are sent to the model inside labelled
	 * blocks, with a system prompt notice that instructions inside them are data. A
	 * mitigation of prompt injection, not a guarantee.
	 */
	private boolean enabled = true;

	/**
	 * Tag of the blocks: a letter, then letters, digits, '-' or '_'.
	 */
	private String tag = "untrusted-content";

	/**
	 * Notice added to the system prompt of a request holding blocks; a default naming the
	 * tag when not set.
	 */
	private @Nullable String notice;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getTag() {
		return this.tag;
	}

	public void setTag(String tag) {
		this.tag = tag;
	}

	public @Nullable String getNotice() {
		return this.notice;
	}

	public void setNotice(@Nullable String notice) {
		this.notice = notice;
	}

}
