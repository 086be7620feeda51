package dev.agcore.autoconfigure.model;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelDescriptor;
import dev.agcore.model.ModelPrice;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Builds the models of {@code agent.models}: each on a provider entry (built by
 * {@link ProviderModels} with the model and options merged over the provider's) or on a
 * {@link ChatModel} bean (the model name and options applied by a
 * {@link ConfiguredChatModel}), with its price and context window.
 */
final class NamedModels {

	private final Map<String, ChatModel> models = new LinkedHashMap<>();

	private final Map<String, ModelDescriptor> descriptors = new LinkedHashMap<>();

	NamedModels(AgentProperties properties, ProviderModels providerModels, Map<String, ChatModel> beans) {
		Map<String, AgentProperties.Provider> providers = properties.getProviders();
		properties.getModels().forEach((name, spec) -> {
			String prefix = "agent.models." + name;
			String source = source(prefix, spec.getProvider(), providers, beans);
			ChatOptions options = ProviderModels.options(prefix + ".options", spec.getOptions());
			ModelPrice price = price(prefix + ".price", spec.getPrice());
			Integer contextWindow = spec.getContextWindow();
			if (contextWindow != null && contextWindow < 1) {
				throw new AgentConfigurationException(
						prefix + ".context-window must be at least 1 (was " + contextWindow + ")",
						"Set it to the model's context window in tokens, e.g. 128000, or remove it.");
			}
			AgentProperties.Provider provider = providers.get(source);
			ConfiguredChatModel model;
			String providerType = null;
			if (provider != null) {
				// the provider builds the model with the merged options: its own wire defaults
				ChatOptions merged = options.withDefaults(ProviderModels.providerOptions(source, provider));
				ChatModel delegate = providerModels.create(source, provider, spec.getModel(), merged);
				model = new ConfiguredChatModel(name, delegate, ChatOptions.DEFAULTS, price, contextWindow);
				providerType = ProviderModels.type(source, provider);
			}
			else {
				ChatOptions defaults = ChatOptions.builder().model(trimmed(spec.getModel())).build().withDefaults(options);
				model = new ConfiguredChatModel(name, beans.get(source), defaults, price, contextWindow);
			}
			this.models.put(name, model);
			this.descriptors.put(name, new ModelDescriptor(name, ModelDescriptor.KIND_MODEL, source, providerType,
					model.modelName(), contextWindow, price, model.capabilities()));
		});
	}

	Map<String, ChatModel> models() {
		return this.models;
	}

	Map<String, ModelDescriptor> descriptors() {
		return this.descriptors;
	}

	private static String source(String prefix, @Nullable String configured, Map<String, AgentProperties.Provider> providers,
			Map<String, ChatModel> beans) {
		String available = "configured providers: " + providers.keySet() + "; ChatModel beans: " + beans.keySet();
		if (!StringUtils.hasText(configured)) {
			if (providers.size() == 1) {
				return providers.keySet().iterator().next();
			}
			throw new AgentConfigurationException(
					prefix + ".provider must be set when there is not exactly one provider; " + available,
					"Set " + prefix + ".provider to the name of a provider under agent.providers or of a "
							+ "ChatModel bean.");
		}
		String name = configured.strip();
		if (!providers.containsKey(name) && !beans.containsKey(name)) {
			throw new AgentConfigurationException(prefix + ".provider: unknown provider '" + name + "'; " + available,
					"Set " + prefix + ".provider to the name of a provider under agent.providers or of a "
							+ "ChatModel bean.");
		}
		return name;
	}

	private static @Nullable String trimmed(@Nullable String value) {
		return StringUtils.hasText(value) ? value.strip() : null;
	}

	static @Nullable ModelPrice price(String prefix, AgentProperties.Price price) {
		if (price.getInput() == null && price.getOutput() == null && price.getCachedInput() == null
				&& price.getCacheWrite() == null) {
			return null;
		}
		if (price.getInput() == null || price.getOutput() == null) {
			throw new AgentConfigurationException(
					prefix + ".input and " + prefix + ".output must both be set when a price is configured",
					"Set both, per million tokens, e.g. input: 2.50 and output: 10.00.");
		}
		return new ModelPrice(amount(prefix + ".input", price.getInput()), amount(prefix + ".output", price.getOutput()),
				(price.getCachedInput() != null) ? amount(prefix + ".cached-input", price.getCachedInput()) : null,
				(price.getCacheWrite() != null) ? amount(prefix + ".cache-write", price.getCacheWrite()) : null);
	}

	private static BigDecimal amount(String property, Double value) {
		if (value < 0 || value.isNaN() || value.isInfinite()) {
			throw new AgentConfigurationException(property + " must be a non-negative number (was " + value + ")",
					"Set the price per million tokens, e.g. 2.50, or 0 for a free model.");
		}
		return BigDecimal.valueOf(value);
	}

}
