package dev.agcore.autoconfigure.model;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.provider.support.RateLimitListener;
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

	// one per provider package; a type belongs to exactly one factory
	private static final List<ProviderFactory> FACTORIES = List.of(new OpenAiProviderFactory(),
			new OllamaProviderFactory(), new GeminiProviderFactory(), new AnthropicProviderFactory());

	static final List<String> TYPES = FACTORIES.stream()
		.flatMap((factory) -> factory.types().stream())
		.sorted()
		.toList();

	private final RetrySettings retrySettings;

	private final Supplier<WebClient.Builder> webClientBuilder;

	private final @Nullable RetryRegistry retryRegistry;

	private final RateLimitListener rateLimitListener;

	private final ProviderConnectionPools pools;

	ProviderModels(AgentProperties.Retry retry, Supplier<WebClient.Builder> webClientBuilder,
			@Nullable RetryRegistry retryRegistry, RateLimitListener rateLimitListener,
			ProviderConnectionPools pools) {
		this.retrySettings = retrySettings(retry);
		this.webClientBuilder = webClientBuilder;
		this.retryRegistry = retryRegistry;
		this.rateLimitListener = rateLimitListener;
		this.pools = pools;
	}

	/**
	 * Build the model of a provider entry itself: its own model and options.
	 * @param name the provider name
	 * @param provider its properties
	 * @return the model, with retries
	 */
	ChatModel create(String name, AgentProperties.Provider provider) {
		return create(name, provider, provider.getModel(), providerOptions(name, provider));
	}

	/**
	 * Build a model of a provider entry.
	 * @param name the provider name
	 * @param provider its properties
	 * @param model the model to request, null for the provider's
	 * @param options the options of every call
	 * @return the model, with retries
	 */
	ChatModel create(String name, AgentProperties.Provider provider, @Nullable String model, ChatOptions options) {
		String type = type(name, provider);
		ProviderFactory factory = FACTORIES.stream()
			.filter((candidate) -> candidate.types().contains(type))
			.findFirst()
			.orElseThrow(() -> unknownType(name, provider, type));
		String requested = StringUtils.hasText(model) ? model : provider.getModel();
		ProviderSource source = new ProviderSource(name, type, provider, requested, options,
				this.pools.apply(name, provider.getMaxConnections(), this.webClientBuilder),
				this.rateLimitListener);
		return new RetryingChatModel(factory.create(source), this.retrySettings, this.retryRegistry);
	}

	/**
	 * Return a provider's default options: its {@code options}, with the older top-level
	 * {@code temperature} and {@code max-tokens} where those are not set.
	 * @param name the provider name
	 * @param provider its properties
	 * @return the options
	 */
	static ChatOptions providerOptions(String name, AgentProperties.Provider provider) {
		String prefix = "agent.providers." + name;
		ChatOptions legacy = ChatOptions.builder()
			.temperature(provider.getTemperature())
			.maxTokens(checkMaxTokens(prefix + ".max-tokens", provider.getMaxTokens()))
			.build();
		return options(prefix + ".options", provider.getOptions()).withDefaults(legacy);
	}

	/**
	 * Map {@code options} properties to chat options, reporting bad values by property.
	 * @param prefix the properties' prefix
	 * @param options the properties
	 * @return the options
	 */
	static ChatOptions options(String prefix, AgentProperties.ModelOptions options) {
		Integer thinkingBudget = options.getThinkingBudget();
		if (thinkingBudget != null && thinkingBudget < 0) {
			throw new AgentConfigurationException(
					prefix + ".thinking-budget must not be negative (was " + thinkingBudget + ")",
					"Set a token budget, or 0 to turn thinking off.");
		}
		Duration timeout = options.getTimeout();
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new AgentConfigurationException(prefix + ".timeout must be positive (was " + timeout + ")",
					"Set a positive duration, e.g. 60s, or remove it to use the provider's response-timeout.");
		}
		return ChatOptions.builder()
			.temperature(options.getTemperature())
			.topP(options.getTopP())
			.maxTokens(checkMaxTokens(prefix + ".max-tokens", options.getMaxTokens()))
			.stop(options.getStop())
			.seed(options.getSeed())
			.frequencyPenalty(options.getFrequencyPenalty())
			.presencePenalty(options.getPresencePenalty())
			.reasoningEffort(options.getReasoningEffort())
			.thinkingBudget(thinkingBudget)
			.timeout(timeout)
			.build();
	}

	private static @Nullable Integer checkMaxTokens(String property, @Nullable Integer maxTokens) {
		if (maxTokens != null && maxTokens < 1) {
			throw new AgentConfigurationException(property + " must be at least 1 (was " + maxTokens + ")",
					"Set a positive limit, or remove it to use the server's default.");
		}
		return maxTokens;
	}

	static String type(String name, AgentProperties.Provider provider) {
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

	private static Duration requirePositive(@Nullable Duration value, String property) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new AgentConfigurationException(property + " must be positive (was " + value + ")",
					"Set " + property + " to a positive duration, e.g. 30s.");
		}
		return value;
	}

}
