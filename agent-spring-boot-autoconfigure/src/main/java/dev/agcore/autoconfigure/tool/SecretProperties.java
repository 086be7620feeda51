package dev.agcore.autoconfigure.tool;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the secrets tools may receive through
 * {@code <secret_ref:NAME>} placeholders.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.secrets", ignoreUnknownFields = false)
public class SecretProperties {

	/**
	 * Names of the secrets a placeholder may refer to, read from the Spring Environment
	 * (properties, environment variables...). Names or globs such as "myapp.secrets.*".
	 * None when empty: the model must not be able to read arbitrary properties or
	 * environment variables.
	 */
	private List<String> allowed = new ArrayList<>();

	public List<String> getAllowed() {
		return this.allowed;
	}

	public void setAllowed(List<String> allowed) {
		this.allowed = allowed;
	}

}
