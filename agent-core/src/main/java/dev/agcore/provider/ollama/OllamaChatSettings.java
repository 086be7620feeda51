package dev.agcore.provider.ollama;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * Settings of an {@link OllamaChatModel}.
 *
 * @param providerName the name used in metrics and error messages; {@code ollama} when
 * null or blank
 * @param baseUrl Ollama's address without {@code /api}, such as
 * {@code http://localhost:11434}; {@value OllamaEmbeddingModel#DEFAULT_BASE_URL} when null
 * or blank
 * @param model the model requested unless a request names another, such as
 * {@code llama3.2} or {@code qwen3:8b}
 * @param apiKey a bearer token, for Ollama's cloud or a proxy in front of Ollama; null or
 * blank sends no {@code Authorization} header, as a local Ollama expects
 * @param defaultOptions the options of every request, under each request's own
 * @param keepAlive how long Ollama keeps the model loaded after a request, such as
 * {@code 5m}, {@code 0} or {@code -1} (for ever); null for the server's default
 * @param headers extra HTTP headers sent with every request
 * @param extraBody extra fields merged into every request body last, over the mapped ones
 * @param responseTimeout how long to wait for the response, and in a stream for the first
 * and each next line; 60 seconds when null (the first call may also load the model)
 */
public record OllamaChatSettings(String providerName, String baseUrl, String model, @Nullable String apiKey,
		ChatOptions defaultOptions, @Nullable String keepAlive, Map<String, String> headers,
		Map<String, Object> extraBody, Duration responseTimeout) {

	/** The default provider name. */
	public static final String DEFAULT_PROVIDER_NAME = "ollama";

	/** The default response timeout. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(60);

	public OllamaChatSettings(@Nullable String providerName, @Nullable String baseUrl, String model,
			@Nullable String apiKey, @Nullable ChatOptions defaultOptions, @Nullable String keepAlive,
			@Nullable Map<String, String> headers, @Nullable Map<String, Object> extraBody,
			@Nullable Duration responseTimeout) {
		this.providerName = (providerName != null && !providerName.isBlank()) ? providerName : DEFAULT_PROVIDER_NAME;
		this.baseUrl = (baseUrl != null && !baseUrl.isBlank()) ? baseUrl.strip()
				: OllamaEmbeddingModel.DEFAULT_BASE_URL;
		Objects.requireNonNull(model, "'model' must not be null");
		if (model.isBlank()) {
			throw new IllegalArgumentException("'model' must not be blank");
		}
		this.model = model;
		this.apiKey = apiKey;
		this.defaultOptions = (defaultOptions != null) ? defaultOptions : ChatOptions.DEFAULTS;
		this.keepAlive = (keepAlive != null && !keepAlive.isBlank()) ? keepAlive.strip() : null;
		this.headers = copy(headers);
		this.extraBody = copy(extraBody);
		this.responseTimeout = (responseTimeout != null) ? responseTimeout : DEFAULT_RESPONSE_TIMEOUT;
		if (this.responseTimeout.isNegative() || this.responseTimeout.isZero()) {
			throw new IllegalArgumentException("'responseTimeout' must be positive");
		}
	}

	/**
	 * Create settings for a model on a local Ollama, with defaults for everything else.
	 * @param model the model
	 * @return the settings
	 */
	public static OllamaChatSettings of(String model) {
		return new OllamaChatSettings(null, null, model, null, null, null, null, null, null);
	}

	/**
	 * Create settings for a model on an Ollama at the given address.
	 * @param baseUrl Ollama's address, without {@code /api}
	 * @param model the model
	 * @return the settings
	 */
	public static OllamaChatSettings of(String baseUrl, String model) {
		return new OllamaChatSettings(null, baseUrl, model, null, null, null, null, null, null);
	}

	public OllamaChatSettings withProviderName(String providerName) {
		return new OllamaChatSettings(providerName, this.baseUrl, this.model, this.apiKey, this.defaultOptions,
				this.keepAlive, this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withBaseUrl(String baseUrl) {
		return new OllamaChatSettings(this.providerName, baseUrl, this.model, this.apiKey, this.defaultOptions,
				this.keepAlive, this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withModel(String model) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, model, this.apiKey, this.defaultOptions,
				this.keepAlive, this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withApiKey(@Nullable String apiKey) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, apiKey, this.defaultOptions,
				this.keepAlive, this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withDefaultOptions(ChatOptions defaultOptions) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, this.apiKey,
				Objects.requireNonNull(defaultOptions, "'defaultOptions' must not be null"), this.keepAlive,
				this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withKeepAlive(@Nullable String keepAlive) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, this.apiKey, this.defaultOptions,
				keepAlive, this.headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withHeaders(Map<String, String> headers) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, this.apiKey, this.defaultOptions,
				this.keepAlive, headers, this.extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withExtraBody(Map<String, Object> extraBody) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, this.apiKey, this.defaultOptions,
				this.keepAlive, this.headers, extraBody, this.responseTimeout);
	}

	public OllamaChatSettings withResponseTimeout(Duration responseTimeout) {
		return new OllamaChatSettings(this.providerName, this.baseUrl, this.model, this.apiKey, this.defaultOptions,
				this.keepAlive, this.headers, this.extraBody,
				Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null"));
	}

	/**
	 * Return whether an API key is configured.
	 * @return whether to send an {@code Authorization} header
	 */
	public boolean hasApiKey() {
		return this.apiKey != null && !this.apiKey.isBlank();
	}

	// the key must never end up in logs, nor header values (they may carry credentials)
	@Override
	public String toString() {
		return "OllamaChatSettings[providerName=" + this.providerName + ", baseUrl=" + this.baseUrl + ", model="
				+ this.model + ", apiKey=" + (hasApiKey() ? "******" : "none") + ", defaultOptions="
				+ this.defaultOptions + ", keepAlive=" + this.keepAlive + ", headers=" + this.headers.keySet()
				+ ", extraBody=" + this.extraBody.keySet() + ", responseTimeout=" + this.responseTimeout + "]";
	}

	private static <V> Map<String, V> copy(@Nullable Map<String, V> map) {
		if (map == null || map.isEmpty()) {
			return Map.of();
		}
		// keeps the configured order, which a body's fields follow
		return Collections.unmodifiableMap(new LinkedHashMap<>(map));
	}

}
