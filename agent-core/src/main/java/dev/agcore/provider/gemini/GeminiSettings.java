package dev.agcore.provider.gemini;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link GeminiChatModel}.
 *
 * @param providerName the name used in metrics and error messages; {@code gemini} when
 * null or blank
 * @param baseUrl the API root; {@value #DEFAULT_BASE_URL} when null or blank
 * @param apiKey the API key, sent in the {@code x-goog-api-key} header (never in the URL);
 * null or blank sends none, for a proxy that adds it
 * @param model the model requested unless a request names another, such as
 * {@code gemini-2.5-flash}
 * @param defaultOptions options applied under each request's own
 * ({@link ChatOptions#withDefaults(ChatOptions)})
 * @param headers extra headers sent with every request
 * @param extraBody fields merged into every request body last, objects merged deeply
 * (such as {@code safetySettings}, or {@code generationConfig.topK})
 * @param responseTimeout how long to wait for the response, and in a stream for the first
 * and each next event; 60 seconds when null
 */
public record GeminiSettings(String providerName, String baseUrl, @Nullable String apiKey, String model,
		ChatOptions defaultOptions, Map<String, String> headers, Map<String, Object> extraBody,
		Duration responseTimeout) {

	/** The default provider name. */
	public static final String DEFAULT_PROVIDER_NAME = "gemini";

	/** The Gemini API root. */
	public static final String DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

	/** The default response timeout. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(60);

	public GeminiSettings(@Nullable String providerName, @Nullable String baseUrl, @Nullable String apiKey,
			String model, @Nullable ChatOptions defaultOptions, @Nullable Map<String, String> headers,
			@Nullable Map<String, Object> extraBody, @Nullable Duration responseTimeout) {
		this.providerName = (providerName != null && !providerName.isBlank()) ? providerName : DEFAULT_PROVIDER_NAME;
		this.baseUrl = (baseUrl != null && !baseUrl.isBlank()) ? baseUrl.strip() : DEFAULT_BASE_URL;
		this.apiKey = apiKey;
		Objects.requireNonNull(model, "'model' must not be null");
		if (model.isBlank()) {
			throw new IllegalArgumentException("'model' must not be blank");
		}
		this.model = model.strip();
		this.defaultOptions = (defaultOptions != null) ? defaultOptions : ChatOptions.DEFAULTS;
		this.headers = (headers != null) ? Map.copyOf(headers) : Map.of();
		// LinkedHashMap: values may be null (JSON null), which Map.copyOf rejects
		this.extraBody = (extraBody != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(extraBody))
				: Map.of();
		this.responseTimeout = (responseTimeout != null) ? responseTimeout : DEFAULT_RESPONSE_TIMEOUT;
		if (this.responseTimeout.isNegative() || this.responseTimeout.isZero()) {
			throw new IllegalArgumentException("'responseTimeout' must be positive");
		}
	}

	/**
	 * Create settings for the Gemini API with defaults for everything but the essentials.
	 * @param apiKey the API key
	 * @param model the model
	 * @return the settings
	 */
	public static GeminiSettings of(@Nullable String apiKey, String model) {
		return new GeminiSettings(null, null, apiKey, model, null, null, null, null);
	}

	public GeminiSettings withProviderName(String providerName) {
		return new GeminiSettings(providerName, this.baseUrl, this.apiKey, this.model, this.defaultOptions,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withBaseUrl(String baseUrl) {
		return new GeminiSettings(this.providerName, baseUrl, this.apiKey, this.model, this.defaultOptions,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withApiKey(@Nullable String apiKey) {
		return new GeminiSettings(this.providerName, this.baseUrl, apiKey, this.model, this.defaultOptions,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withModel(String model) {
		return new GeminiSettings(this.providerName, this.baseUrl, this.apiKey, model, this.defaultOptions,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withDefaultOptions(ChatOptions defaultOptions) {
		return new GeminiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, defaultOptions,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withHeaders(Map<String, String> headers) {
		return new GeminiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.defaultOptions,
				headers, this.extraBody, this.responseTimeout);
	}

	public GeminiSettings withExtraBody(Map<String, Object> extraBody) {
		return new GeminiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.defaultOptions,
				this.headers, extraBody, this.responseTimeout);
	}

	public GeminiSettings withResponseTimeout(Duration responseTimeout) {
		return new GeminiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.defaultOptions,
				this.headers, this.extraBody, Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null"));
	}

	/**
	 * Return whether an API key is configured.
	 * @return whether to send an {@code x-goog-api-key} header
	 */
	public boolean hasApiKey() {
		return this.apiKey != null && !this.apiKey.isBlank();
	}

	// the key must never end up in logs; header values may hold credentials too
	@Override
	public String toString() {
		return "GeminiSettings[providerName=" + this.providerName + ", baseUrl=" + this.baseUrl + ", apiKey="
				+ (hasApiKey() ? "******" : "none") + ", model=" + this.model + ", defaultOptions="
				+ this.defaultOptions + ", headers=" + this.headers.keySet() + ", extraBody=" + this.extraBody.keySet()
				+ ", responseTimeout=" + this.responseTimeout + "]";
	}

}
