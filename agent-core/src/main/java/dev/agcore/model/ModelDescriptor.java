package dev.agcore.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What the {@link ChatModelRegistry} knows about one of its models, as listed by
 * {@code GET {base-path}/models}. Holds no credentials and no URLs.
 *
 * @param name the name agents use: of the named model, provider or bean
 * @param kind {@code model} (under {@code agent.models}), {@code provider} (under
 * {@code agent.providers}) or {@code bean} (a {@link ChatModel} bean)
 * @param provider the provider entry or bean that serves the model; for a provider or
 * bean, its own name
 * @param providerType the provider's {@code type}, such as {@code openai}; null for a bean
 * @param model the model requested by default, as in metrics
 * @param contextWindow the configured context window in tokens, null when not configured
 * @param price the configured price, null when not configured
 * @param capabilities what the model can do natively
 */
public record ModelDescriptor(String name, String kind, String provider, @Nullable String providerType, String model,
		@Nullable Integer contextWindow, @Nullable ModelPrice price, Set<ModelCapability> capabilities) {

	/** Kind of a model under {@code agent.models}. */
	public static final String KIND_MODEL = "model";

	/** Kind of a model built from an {@code agent.providers} entry. */
	public static final String KIND_PROVIDER = "provider";

	/** Kind of a {@link ChatModel} bean. */
	public static final String KIND_BEAN = "bean";

	public ModelDescriptor {
		// in declaration order, so that every listing shows them the same way
		capabilities = Collections.unmodifiableSet(capabilities.isEmpty() ? EnumSet.noneOf(ModelCapability.class)
				: EnumSet.copyOf(capabilities));
	}

}
