package dev.agcore.provider.openai;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelCapability;
import org.jspecify.annotations.Nullable;

/**
 * Settings of an {@link OpenAiChatModel}.
 *
 * @param providerName the name used in metrics and error messages; {@code openai} when
 * null or blank
 * @param baseUrl the API root, such as {@code https://api.openai.com/v1} or
 * {@code http://localhost:11434/v1}
 * @param apiKey the API key; null or blank sends no authentication header, as local
 * servers (Ollama, vLLM) expect
 * @param model the model requested unless a request names another
 * @param temperature the default sampling temperature, null for the server's default;
 * below {@code defaultOptions}
 * @param maxTokens the default token limit, null for the server's default; below
 * {@code defaultOptions}
 * @param responseTimeout how long to wait for the response, and in a stream for the
 * first and each next data event (comments and keep-alives do not count); 60 seconds
 * when null
 * @param defaultOptions options every request carries unless it sets them itself
 * @param headers extra HTTP headers sent with every request
 * @param extraBody extra fields merged into every request body last, so they win over
 * the fields the model writes
 * @param authStyle how the API key is sent; {@link AuthStyle#BEARER} when null
 * @param queryParameters query parameters of every request, such as Azure's
 * {@code api-version}
 * @param chatPath the path of the chat endpoint below the base URL;
 * {@code /chat/completions} when null or blank
 * @param quirks how the server departs from OpenAI's API; {@link OpenAiQuirks#COMPATIBLE}
 * when null
 * @param capabilities what the server can do; every capability but prompt caching when
 * null or empty
 */
public record OpenAiSettings(String providerName, String baseUrl, @Nullable String apiKey, String model,
		@Nullable Double temperature, @Nullable Integer maxTokens, Duration responseTimeout, ChatOptions defaultOptions,
		Map<String, String> headers, Map<String, Object> extraBody, AuthStyle authStyle,
		Map<String, String> queryParameters, String chatPath, OpenAiQuirks quirks, Set<ModelCapability> capabilities) {

	/** The default provider name. */
	public static final String DEFAULT_PROVIDER_NAME = "openai";

	/** The default response timeout. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(60);

	/** The default path of the chat endpoint. */
	public static final String DEFAULT_CHAT_PATH = "/chat/completions";

	/** What an OpenAI-compatible server can do unless told otherwise. */
	public static final Set<ModelCapability> DEFAULT_CAPABILITIES = Collections
		.unmodifiableSet(EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING,
				ModelCapability.STRUCTURED_OUTPUT, ModelCapability.REASONING, ModelCapability.IMAGES,
				ModelCapability.PDF));

	public OpenAiSettings(@Nullable String providerName, String baseUrl, @Nullable String apiKey, String model,
			@Nullable Double temperature, @Nullable Integer maxTokens, @Nullable Duration responseTimeout,
			@Nullable ChatOptions defaultOptions, @Nullable Map<String, String> headers,
			@Nullable Map<String, Object> extraBody, @Nullable AuthStyle authStyle,
			@Nullable Map<String, String> queryParameters, @Nullable String chatPath, @Nullable OpenAiQuirks quirks,
			@Nullable Set<ModelCapability> capabilities) {
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
		this.defaultOptions = (defaultOptions != null) ? defaultOptions : ChatOptions.DEFAULTS;
		this.headers = (headers != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(headers)) : Map.of();
		this.extraBody = (extraBody != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(extraBody)) : Map.of();
		this.authStyle = (authStyle != null) ? authStyle : AuthStyle.BEARER;
		this.queryParameters = (queryParameters != null)
				? Collections.unmodifiableMap(new LinkedHashMap<>(queryParameters)) : Map.of();
		this.chatPath = (chatPath != null && !chatPath.isBlank()) ? chatPath.strip() : DEFAULT_CHAT_PATH;
		this.quirks = (quirks != null) ? quirks : OpenAiQuirks.COMPATIBLE;
		this.capabilities = (capabilities != null && !capabilities.isEmpty())
				? Collections.unmodifiableSet(EnumSet.copyOf(capabilities)) : DEFAULT_CAPABILITIES;
	}

	/**
	 * Create settings with the original components, the others at their defaults.
	 * @param providerName the provider name, null for {@code openai}
	 * @param baseUrl the API root
	 * @param apiKey the API key, null or blank for none
	 * @param model the model
	 * @param temperature the default temperature, null for the server's
	 * @param maxTokens the default token limit, null for the server's
	 * @param responseTimeout the response timeout, null for 60 seconds
	 */
	public OpenAiSettings(@Nullable String providerName, String baseUrl, @Nullable String apiKey, String model,
			@Nullable Double temperature, @Nullable Integer maxTokens, @Nullable Duration responseTimeout) {
		this(providerName, baseUrl, apiKey, model, temperature, maxTokens, responseTimeout, null, null, null, null,
				null, null, null, null);
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
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withBaseUrl(String baseUrl) {
		return new OpenAiSettings(this.providerName, baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withApiKey(@Nullable String apiKey) {
		return new OpenAiSettings(this.providerName, this.baseUrl, apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withModel(String model) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withTemperature(@Nullable Double temperature) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withMaxTokens(@Nullable Integer maxTokens) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody, this.authStyle,
				this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	public OpenAiSettings withResponseTimeout(Duration responseTimeout) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, Objects.requireNonNull(responseTimeout, "'responseTimeout' must not be null"),
				this.defaultOptions, this.headers, this.extraBody, this.authStyle, this.queryParameters,
				this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with other default options.
	 * @param defaultOptions the new value
	 * @return the settings
	 */
	public OpenAiSettings withDefaultOptions(ChatOptions defaultOptions) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout,
				Objects.requireNonNull(defaultOptions, "'defaultOptions' must not be null"), this.headers,
				this.extraBody, this.authStyle, this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with other extra headers.
	 * @param headers the new value
	 * @return the settings
	 */
	public OpenAiSettings withHeaders(Map<String, String> headers) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, headers, this.extraBody, this.authStyle,
				this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with other extra body fields.
	 * @param extraBody the new value
	 * @return the settings
	 */
	public OpenAiSettings withExtraBody(Map<String, Object> extraBody) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, extraBody, this.authStyle,
				this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with another authentication style.
	 * @param authStyle the new value
	 * @return the settings
	 */
	public OpenAiSettings withAuthStyle(AuthStyle authStyle) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody, authStyle,
				this.queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with other query parameters.
	 * @param queryParameters the new value
	 * @return the settings
	 */
	public OpenAiSettings withQueryParameters(Map<String, String> queryParameters) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, queryParameters, this.chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with another chat path.
	 * @param chatPath the new value
	 * @return the settings
	 */
	public OpenAiSettings withChatPath(String chatPath) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, chatPath, this.quirks, this.capabilities);
	}

	/**
	 * Return these settings with other quirks.
	 * @param quirks the new value
	 * @return the settings
	 */
	public OpenAiSettings withQuirks(OpenAiQuirks quirks) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, quirks, this.capabilities);
	}

	/**
	 * Return these settings with other capabilities.
	 * @param capabilities the new value
	 * @return the settings
	 */
	public OpenAiSettings withCapabilities(Set<ModelCapability> capabilities) {
		return new OpenAiSettings(this.providerName, this.baseUrl, this.apiKey, this.model, this.temperature,
				this.maxTokens, this.responseTimeout, this.defaultOptions, this.headers, this.extraBody,
				this.authStyle, this.queryParameters, this.chatPath, this.quirks, capabilities);
	}

	/**
	 * Return the options every request starts from: {@link #defaultOptions()}, then
	 * {@link #temperature()} and {@link #maxTokens()} where those leave a gap.
	 * @return the options
	 */
	public ChatOptions effectiveDefaults() {
		if (this.temperature == null && this.maxTokens == null) {
			return this.defaultOptions;
		}
		return this.defaultOptions.withDefaults(new ChatOptions(null, this.temperature, this.maxTokens));
	}

	/**
	 * Return whether an API key is configured.
	 * @return whether to send an authentication header
	 */
	public boolean hasApiKey() {
		return this.apiKey != null && !this.apiKey.isBlank();
	}

	// the key must never end up in logs; header values may be keys too
	@Override
	public String toString() {
		return "OpenAiSettings[providerName=" + this.providerName + ", baseUrl=" + this.baseUrl + ", apiKey="
				+ (hasApiKey() ? "******" : "none") + ", model=" + this.model + ", temperature=" + this.temperature
				+ ", maxTokens=" + this.maxTokens + ", responseTimeout=" + this.responseTimeout + ", defaultOptions="
				+ this.defaultOptions + ", headers=" + this.headers.keySet() + ", extraBody=" + this.extraBody.keySet()
				+ ", authStyle=" + this.authStyle + ", queryParameters=" + this.queryParameters.keySet()
				+ ", chatPath=" + this.chatPath + ", quirks=" + this.quirks + ", capabilities=" + this.capabilities
				+ "]";
	}

	private static String requireText(@Nullable String value, String name) {
		Objects.requireNonNull(value, () -> "'" + name + "' must not be null");
		if (value.isBlank()) {
			throw new IllegalArgumentException("'" + name + "' must not be blank");
		}
		return value;
	}

	/**
	 * How the API key is sent.
	 */
	public enum AuthStyle {

		/** {@code Authorization: Bearer <key>}, as OpenAI and most servers take it. */
		BEARER,
		/** {@code api-key: <key>}, as Azure OpenAI takes it. */
		API_KEY

	}

}
