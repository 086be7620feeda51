package dev.agcore.autoconfigure;

import dev.agcore.AgentException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The {@code agent.*} configuration, or the beans it refers to, cannot be turned into
 * working agents. Raised at startup; the message names the property and the
 * {@link #getAction() action} says what to do.
 *
 * @since 0.1.0
 */
public class AgentConfigurationException extends AgentException {

	private final String action;

	public AgentConfigurationException(String message, String action) {
		this(message, action, null);
	}

	public AgentConfigurationException(String message, String action, @Nullable Throwable cause) {
		super(message, cause);
		Assert.hasText(action, "'action' must not be empty");
		this.action = action;
	}

	/**
	 * Return what the user should do to fix the configuration.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
