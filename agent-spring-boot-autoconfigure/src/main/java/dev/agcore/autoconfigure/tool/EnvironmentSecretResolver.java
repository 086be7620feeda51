package dev.agcore.autoconfigure.tool;

import java.util.Collection;
import java.util.Objects;

import dev.agcore.tool.secret.SecretNames;
import dev.agcore.tool.secret.SecretResolver;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * A {@link SecretResolver} that reads secrets from the Spring {@link Environment}
 * (application properties, environment variables, system properties, and any other
 * property source such as a vault), but only those on an allow-list: the names in
 * {@code <secret_ref:NAME>} placeholders are written by the model, which must not be
 * able to read arbitrary properties or environment variables. An empty value counts as
 * no secret.
 *
 * @since 0.1.0
 */
public final class EnvironmentSecretResolver implements SecretResolver {

	private final Environment environment;

	private final SecretNames allowed;

	/**
	 * Create a resolver.
	 * @param environment where the values come from
	 * @param allowed the secret names that may be resolved: names, or globs with
	 * {@code *} (any characters) and {@code ?} (one); none when empty
	 */
	public EnvironmentSecretResolver(Environment environment, Collection<String> allowed) {
		this.environment = Objects.requireNonNull(environment, "'environment' must not be null");
		this.allowed = SecretNames.of(allowed);
	}

	@Override
	public @Nullable String resolve(String name) {
		if (!isAllowed(name)) {
			return null;
		}
		String value = this.environment.getProperty(name);
		return StringUtils.hasLength(value) ? value : null;
	}

	/**
	 * Return whether this resolver can resolve anything at all.
	 * @return whether the allow-list has an entry
	 */
	public boolean resolvesAny() {
		return !this.allowed.isEmpty();
	}

	/**
	 * Return whether a secret name is on the allow-list.
	 * @param name the name
	 * @return whether the secret may be resolved
	 */
	public boolean isAllowed(String name) {
		return this.allowed.allows(name);
	}

	// names only: a resolver is never to show a value
	@Override
	public String toString() {
		return "EnvironmentSecretResolver " + this.allowed;
	}

}
