package dev.agcore.provider.anthropic;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * Settings of an {@link AnthropicChatModel}.
 *
 * @param providerName the name used in metrics and error messages; {@code anthropic}
 * when null or blank
 * @param baseUrl the API root without {@code /v1}, {@code https://api.anthropic.com}
 * when null or blank (a trailing {@code /v1} is tolerated)
 * @param apiKey the API key, sent as {@code x-api-key}
 * @param model the model requested unless a request names another
 * @param apiVersion the {@code anthropic-version} header, {@value #DEFAULT_API_VERSION}
 * when null or blank
 * @param defaultOptions options every request carries unless it sets its own
 * @param headers extra HTTP headers sent with every request, such as
 * {@code anthropic-beta}; they replace a standard header of the same name
 * @param extraBody extra top-level fields merged into every request body last, replacing
 * fields of the same name
 * @param promptCaching whether to mark the last system block and the last tool with
 * {@code cache_control: {type: ephemeral}}
 * @param responseTimeout how long to wait for the response, and in a stream for the
 * first and each next event ({@code ping} events do not count); 60 seconds when null
 */
public record AnthropicSettings(String providerName, String baseUrl, String apiKey, String model, String apiVersion,
		ChatOptions defaultOptions, Map<String, String> headers, Map<String, Object> extraBody, boolean promptCaching,
		Duration responseTimeout) {

	/** The default provider name. */
	public static final String DEFAULT_PROVIDER_NAME = "anthropic";

	/** The default API root. */
	public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

	/** The default {@code anthropic-version}. */
	public static final String DEFAULT_API_VERSION = "2023-06-01";

	/** The default response timeout. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(60);

	public AnthropicSettings(@Nullable String providerName, @Nullable String baseUrl, String apiKey, String model,
			@Nullable String apiVersion, @Nullable ChatOptions defaultOptions, @Nullable Map<String, String> headers,
			@Nullable Map<String, Object> extraBody, boolean promptCaching, @Nullable Duration responseTimeout) {
		this.providerName = hasText(providerName) ? providerName : DEFAULT_PROVIDER_NAME;
		this.baseUrl = hasText(baseUrl) ? baseUrl.strip() : DEFAULT_BASE_URL;
		this.apiKey = requireText(apiKey, "apiKey");
		this.model = requireText(model, "model");
		this.apiVersion = hasText(apiVersion) ? apiVersion.strip() : DEFAULT_API_VERSION;
		this.defaultOptions = (defaultOptions != null) ? defaultOptions : ChatOptions.DEFAULTS;
		this.headers = (headers != null) ? Map.copyOf(headers) : Map.of();
		// insertion order kept: the body is written in the order the user configured
		this.extraBody = (extraBody != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(extraBody))
				: Map.of();
		this.promptCaching = promptCaching;
		this.responseTimeout = (responseTimeout != null) ? responseTimeout : DEFAULT_RESPONSE_TIMEOUT;
		if (this.responseTimeout.isNegative() || this.responseTimeout.isZero()) {
			throw new IllegalArgumentException("'responseTimeout' must be positive");
		}
	}

	/**
	 * Create settings with defaults for everything but the essentials.
	 * @param apiKey the API key
	 * @param model the model
	 * @return the settings
	 */
	public static AnthropicSettings of(String apiKey, String model) {
		return new AnthropicSettings(null, null, apiKey, model, null, null, null, null, false, null);
	}

	public AnthropicSettings withProviderName(String providerName) {
		return new AnthropicSettings(providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withBaseUrl(String baseUrl) {
		return new AnthropicSettings(this.providerName, baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withApiKey(String apiKey) {
		return new AnthropicSettings(this.providerName, this.baseUrl, apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withModel(String model) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withApiVersion(String apiVersion) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withDefaultOptions(ChatOptions defaultOptions) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				Objects.requireNonNull(defaultOptions, "'defaultOptions' must not be null"), this.headers,
				this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withHeaders(Map<String, String> headers) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, headers, this.extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withExtraBody(Map<String, Object> extraBody) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, extraBody, this.promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withPromptCaching(boolean promptCaching) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, promptCaching, this.responseTimeout);
	}

	public AnthropicSettings withResponseTimeout(Duration responseTimeout) {
		return new AnthropicSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.apiVersion,
				this.defaultOptions, this.headers, this.extraBody, this.promptCaching,
				Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null"));
	}

	// the key must never end up in logs; header values may hold secrets too
	@Override
	public String toString() {
		return "AnthropicSettings[providerName=" + this.providerName + ", baseUrl=" + this.baseUrl
				+ ", apiKey=******, model=" + this.model + ", apiVersion=" + this.apiVersion + ", defaultOptions="
				+ this.defaultOptions + ", headers=" + this.headers.keySet() + ", extraBody=" + this.extraBody.keySet()
				+ ", promptCaching=" + this.promptCaching + ", responseTimeout=" + this.responseTimeout + "]";
	}

	private static boolean hasText(@Nullable String value) {
		return value != null && !value.isBlank();
	}

	private static String requireText(@Nullable String value, String name) {
		Objects.requireNonNull(value, () -> "'" + name + "' must not be null");
		if (value.isBlank()) {
			throw new IllegalArgumentException("'" + name + "' must not be blank");
		}
		return value;
	}

}
