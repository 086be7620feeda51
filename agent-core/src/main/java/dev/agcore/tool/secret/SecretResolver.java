package dev.agcore.tool.secret;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Looks up the value of a secret named in a {@code <secret_ref:NAME>} placeholder. Called
 * on the tool's thread just before the tool runs; may block. Implementations are
 * thread-safe and never log the values they return.
 */
@FunctionalInterface
public interface SecretResolver {

	/** Knows no secret. */
	SecretResolver NONE = (name) -> null;

	/**
	 * Return the value of a secret.
	 * @param name the name in the placeholder
	 * @return the value, or {@code null} if there is no such secret
	 */
	@Nullable String resolve(String name);

	/**
	 * Return a resolver that reads JVM system properties, then environment variables, but
	 * only the names allowed: the name in a placeholder is written by the model, which
	 * must not be able to read any property or variable it can guess. With no names it
	 * resolves nothing. An empty value counts as no secret.
	 * @param allowed the names that may be resolved: names, or globs with {@code *} (any
	 * characters) and {@code ?} (one character)
	 * @return the resolver
	 */
	static SecretResolver environment(String... allowed) {
		SecretNames names = SecretNames.of(Arrays.asList(allowed));
		return (name) -> {
			if (!names.allows(name)) {
				return null;
			}
			String value = System.getProperty(name);
			if (value == null || value.isEmpty()) {
				value = System.getenv(name);
			}
			return (value != null && !value.isEmpty()) ? value : null;
		};
	}

	/**
	 * Return a resolver that knows a fixed set of secrets, e.g. for tests.
	 * @param secrets the values by name
	 * @return the resolver
	 */
	static SecretResolver of(Map<String, String> secrets) {
		Map<String, String> copy = Map.copyOf(secrets);
		return (name) -> copy.get(Objects.requireNonNull(name, "'name' must not be null"));
	}

}
