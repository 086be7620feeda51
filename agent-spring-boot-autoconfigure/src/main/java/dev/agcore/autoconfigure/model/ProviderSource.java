package dev.agcore.autoconfigure.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatOptions;
import dev.agcore.provider.support.RateLimitListener;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * What a {@link ProviderFactory} builds a model from: one {@code agent.providers.<name>}
 * entry, the model to request, the options every call carries, and the shared HTTP
 * client builder.
 *
 * @param name the provider's name under {@code agent.providers}
 * @param type the provider's type, lower case
 * @param properties the provider's properties
 * @param model the model to request (a named model's, or the provider's own); null when
 * neither sets one
 * @param defaultOptions the options of every call: the provider's merged with a named
 * model's
 * @param webClientBuilder where a fresh builder comes from, carrying Boot's codecs and
 * observations: asked when the model sends its first request, so that startup does not
 * build the HTTP client
 * @param rateLimitListener told every response's headers
 */
record ProviderSource(String name, String type, AgentProperties.Provider properties, @Nullable String model,
		ChatOptions defaultOptions, Supplier<WebClient.Builder> webClientBuilder, RateLimitListener rateLimitListener) {

	/**
	 * Return the property prefix of this provider.
	 * @return {@code agent.providers.<name>}
	 */
	String prefix() {
		return "agent.providers." + this.name;
	}

	/**
	 * Return the model to request, failing when none is configured.
	 * @param example an example model name for the error message
	 * @return the model
	 */
	String requireModel(String example) {
		if (!StringUtils.hasText(this.model)) {
			throw new AgentConfigurationException(prefix() + ".model must be set",
					"Set it (or the model of a named model under agent.models) to the model to request, e.g. "
							+ example + ".");
		}
		return this.model.strip();
	}

	/**
	 * Return the configured base URL, or a default, checked to be an http(s) URL.
	 * @param defaultUrl the provider's documented API root, null when there is none
	 * @param example an example for the error message
	 * @return the base URL without trailing slashes
	 */
	String baseUrl(@Nullable String defaultUrl, String example) {
		String configured = this.properties.getBaseUrl();
		String baseUrl = StringUtils.hasText(configured) ? configured.strip() : defaultUrl;
		String property = prefix() + ".base-url";
		if (baseUrl == null) {
			throw new AgentConfigurationException(property + " must be set",
					"Set it to the API root, e.g. " + example + ".");
		}
		if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
			throw new AgentConfigurationException(
					property + " must be an http:// or https:// URL (was '" + baseUrl + "')",
					"Set it to the API root, e.g. " + example + ".");
		}
		try {
			new URI(baseUrl);
		}
		catch (URISyntaxException ex) {
			// the model would fail with a bare URISyntaxException, naming no property
			throw new AgentConfigurationException(property + " is not a valid URL: " + ex.getMessage(),
					"Set it to the API root, e.g. " + example
							+ "; encode spaces and other special characters.",
					ex);
		}
		return baseUrl.replaceAll("/+$", "");
	}

	/**
	 * Return the API key, or null when none is set.
	 * @return the key
	 */
	@Nullable String apiKey() {
		String key = this.properties.getApiKey();
		if (key != null && key.contains("${")) {
			// Spring leaves a placeholder it cannot resolve as it is: sent as the key, it would
			// only fail later, as a 401 naming no property
			String variable = key.replaceAll(".*\\$\\{([^}:]*).*", "$1");
			throw new AgentConfigurationException(
					prefix() + ".api-key is the unresolved placeholder '" + key + "'",
					"Set the environment variable or property " + variable + ", or write ${" + variable
							+ ":} to run without a key where the server needs none.");
		}
		return StringUtils.hasText(key) ? key.strip() : null;
	}

	/**
	 * Return the API key, failing when none is set.
	 * @param environmentVariable the variable the key usually comes from, for the message
	 * @return the key
	 */
	String requireApiKey(String environmentVariable) {
		String key = apiKey();
		if (key == null) {
			throw new AgentConfigurationException(
					prefix() + ".api-key must be set for a provider of type '" + this.type + "'",
					"Set it, e.g. " + prefix() + ".api-key=${" + environmentVariable + "}.");
		}
		return key;
	}

	/**
	 * Return the extra body fields, numbers and booleans given as text typed.
	 * @return the fields
	 */
	Map<String, Object> extraBody() {
		return ExtraBody.typed(this.properties.getExtraBody());
	}

	/**
	 * Return the response timeout, checked to be positive.
	 * @return the timeout
	 */
	Duration responseTimeout() {
		Duration timeout = this.properties.getResponseTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new AgentConfigurationException(prefix() + ".response-timeout must be positive (was " + timeout + ")",
					"Set " + prefix() + ".response-timeout to a positive duration, e.g. 60s.");
		}
		return timeout;
	}

}
