package dev.agcore.provider.openai;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Settings of an {@link OpenAiChatModel}.
 *
 * @param providerName the name used in metrics and error messages; {@code openai} when
 * null or blank
 * @param baseUrl the API root, such as {@code https://api.openai.com/v1} or
 * {@code http://localhost:11434/v1}
 * @param apiKey the API key; null or blank sends no {@code Authorization} header, as
 * local servers (Ollama, vLLM) expect
 * @param model the model requested unless a request names another
 * @param temperature the default sampling temperature, null for the server's default
 * @param maxTokens the default token limit, null for the server's default
 * @param responseTimeout how long to wait for the response, and in a stream for the
 * first and each next data event (comments and keep-alives do not count); 60 seconds
 * when null
 */
public record OpenAiSettings(String providerName, String baseUrl, @Nullable String apiKey, String model,
		@Nullable Double temperature, @Nullable Integer maxTokens, Duration responseTimeout) {

	/** The default provider name. */
	public static final String DEFAULT_PROVIDER_NAME = "openai";

	/** The default response timeout. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(60);

	public OpenAiSettings(@Nullable String providerName, String baseUrl, @Nullable String apiKey, String model,
			@Nullable Double temperature, @Nullable Integer maxTokens, @Nullable Duration responseTimeout) {
		this.providerName = (providerName != null && !providerName.isBlank()) ? providerName : DEFAULT_PROVIDER_NAME;
		this.baseUrl = requireText(baseUrl, "baseUrl");
		this.apiKey = apiKey;
		this.model = requireText(model, "model");
		this.temperature = temperature;
		this.maxTokens = maxTokens;
		this.responseTimeout = (responseTimeout != null) ? responseTimeout : DEFAULT_RESPONSE_TIMEOUT;
		if (this.responseTimeout.isNegative() || this.responseTimeout.isZero()) {
			throw new IllegalArgumentException("'responseTimeout' must be positive");
		}
		if (maxTokens != null && maxTokens <= 0) {
			throw new IllegalArgumentException("'maxTokens' must be positive");
		}
	}

	/**
	 * Create settings with defaults for everything but the essentials.
	 * @param baseUrl the API root
	 * @param apiKey the API key, null or blank for none
	 * @param model the model
	 * @return the settings
	 */
	public static OpenAiSettings of(String baseUrl, @Nullable String apiKey, String model) {
		return new OpenAiSettings(null, baseUrl, apiKey, model, null, null, null);
	}

	public OpenAiSettings withProviderName(String providerName) {
		return new OpenAiSettings(providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withBaseUrl(String baseUrl) {
		return new OpenAiSettings(this.providerName, baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withApiKey(@Nullable String apiKey) {
		return new OpenAiSettings(this.providerName, this.baseUrl, apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withModel(String model) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, model, this.temperature,
				this.maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withTemperature(@Nullable Double temperature) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, temperature,
				this.maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withMaxTokens(@Nullable Integer maxTokens) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				maxTokens, this.responseTimeout);
	}

	public OpenAiSettings withResponseTimeout(Duration responseTimeout) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null"));
	}

	/**
	 * Return whether an API key is configured.
	 * @return whether to send an {@code Authorization} header
	 */
	public boolean hasApiKey() {
		return this.apiKey != null && !this.apiKey.isBlank();
	}

	// the key must never end up in logs
	@Override
	public String toString() {
		return "OpenAiSettings[providerName=" + this.providerName + ", baseUrl=" + this.baseUrl + ", apiKey="
				+ (hasApiKey() ? "******" : "none") + ", model=" + this.model + ", temperature=" + this.temperature
				+ ", maxTokens=" + this.maxTokens + ", responseTimeout=" + this.responseTimeout + "]";
	}

	private static String requireText(@Nullable String value, String name) {
		Objects.requireNonNull(value, () -> "'" + name + "' must not be null");
		if (value.isBlank()) {
			throw new IllegalArgumentException("'" + name + "' must not be blank");
		}
		return value;
	}

}
