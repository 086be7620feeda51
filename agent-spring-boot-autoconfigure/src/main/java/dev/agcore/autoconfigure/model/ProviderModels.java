package dev.agcore.autoconfigure.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatModel;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.resilience.RetryingChatModel;
import dev.agcore.resilience.RetrySettings;
import io.github.resilience4j.retry.RetryRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Maps {@code agent.providers.*} and {@code agent.retry.*} to chat models, reporting bad
 * values with the property that holds them.
 */
final class ProviderModels {

	static final String OPENAI = "openai";

	static final List<String> TYPES = List.of(OPENAI);

	private final RetrySettings retrySettings;

	private final Supplier<WebClient.Builder> webClientBuilder;

	private final @Nullable RetryRegistry retryRegistry;

	ProviderModels(AgentProperties.Retry retry, Supplier<WebClient.Builder> webClientBuilder,
			@Nullable RetryRegistry retryRegistry) {
		this.retrySettings = retrySettings(retry);
		this.webClientBuilder = webClientBuilder;
		this.retryRegistry = retryRegistry;
	}

	ChatModel create(String name, AgentProperties.Provider provider) {
		String prefix = "agent.providers." + name;
		String type = type(name, provider);
		if (!OPENAI.equals(type)) {
			throw unknownType(name, provider, type);
		}
		OpenAiSettings settings = openAiSettings(prefix, name, provider);
		OpenAiChatModel model = OpenAiChatModel.builder()
			.settings(settings)
			.webClientBuilder(this.webClientBuilder.get())
			.build();
		return new RetryingChatModel(model, this.retrySettings, this.retryRegistry);
	}

	private static String type(String name, AgentProperties.Provider provider) {
		String type = StringUtils.hasText(provider.getType()) ? provider.getType() : name;
		return type.strip().toLowerCase(Locale.ROOT);
	}

	private static AgentConfigurationException unknownType(String name, AgentProperties.Provider provider,
			String type) {
		String prefix = "agent.providers." + name;
		if (!StringUtils.hasText(provider.getType())) {
			return new AgentConfigurationException(
					prefix + ".type is not set, so it defaults to the provider's name '" + name
							+ "', which is not a known provider type; supported types: " + TYPES,
					"Set " + prefix + ".type, e.g. to 'openai' for any OpenAI-compatible server "
							+ "(OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, ...).");
		}
		return new AgentConfigurationException(
				prefix + ".type: unknown provider type '" + type + "'; supported types: " + TYPES,
				"Set " + prefix + ".type to one of " + TYPES
						+ "; 'openai' works with any OpenAI-compatible server.");
	}

	private static OpenAiSettings openAiSettings(String prefix, String name, AgentProperties.Provider provider) {
		String baseUrl = requireText(provider.getBaseUrl(), prefix + ".base-url",
				"Set it to the API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 for Ollama.");
		String model = requireText(provider.getModel(), prefix + ".model",
				"Set it to the model to request, e.g. gpt-4o-mini.");
		checkBaseUrl(prefix + ".base-url", baseUrl);
		Integer maxTokens = provider.getMaxTokens();
		if (maxTokens != null && maxTokens < 1) {
			throw new AgentConfigurationException(prefix + ".max-tokens must be at least 1 (was " + maxTokens + ")",
					"Set a positive limit, or remove it to use the server's default.");
		}
		Duration responseTimeout = requirePositive(provider.getResponseTimeout(), prefix + ".response-timeout");
		return new OpenAiSettings(name, baseUrl, provider.getApiKey(), model, provider.getTemperature(), maxTokens,
				responseTimeout);
	}

	// the model would fail with a bare URISyntaxException, naming no property
	private static void checkBaseUrl(String property, String baseUrl) {
		if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
			throw new AgentConfigurationException(
					property + " must be an http:// or https:// URL (was '" + baseUrl + "')",
					"Set it to the API root, e.g. https://api.openai.com/v1.");
		}
		try {
			new URI(baseUrl);
		}
		catch (URISyntaxException ex) {
			throw new AgentConfigurationException(property + " is not a valid URL: " + ex.getMessage(),
					"Set it to the API root, e.g. https://api.openai.com/v1; encode spaces and other special "
							+ "characters.",
					ex);
		}
	}

	private static RetrySettings retrySettings(AgentProperties.Retry retry) {
		if (retry.getMaxAttempts() < 1) {
			throw new AgentConfigurationException(
					"agent.retry.max-attempts must be at least 1 (was " + retry.getMaxAttempts() + ")",
					"Set agent.retry.max-attempts to 1 to disable retries, or higher to retry.");
		}
		if (!(retry.getMultiplier() >= 1.0) || Double.isInfinite(retry.getMultiplier())) {
			throw new AgentConfigurationException(
					"agent.retry.multiplier must be at least 1.0 (was " + retry.getMultiplier() + ")",
					"Set agent.retry.multiplier to 1.0 for a constant wait, or higher for exponential backoff.");
		}
		return RetrySettings.defaults()
			.withMaxAttempts(retry.getMaxAttempts())
			.withInitialBackoff(requirePositive(retry.getInitialBackoff(), "agent.retry.initial-backoff"))
			.withMultiplier(retry.getMultiplier())
			.withMaxBackoff(requirePositive(retry.getMaxBackoff(), "agent.retry.max-backoff"))
			.withMaxRetryAfter(requirePositive(retry.getMaxRetryAfter(), "agent.retry.max-retry-after"));
	}

	private static String requireText(@Nullable String value, String property, String action) {
		if (!StringUtils.hasText(value)) {
			throw new AgentConfigurationException(property + " must be set", action);
		}
		return value.strip();
	}

	private static Duration requirePositive(@Nullable Duration value, String property) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new AgentConfigurationException(property + " must be positive (was " + value + ")",
					"Set " + property + " to a positive duration, e.g. 30s.");
		}
		return value;
	}

}
