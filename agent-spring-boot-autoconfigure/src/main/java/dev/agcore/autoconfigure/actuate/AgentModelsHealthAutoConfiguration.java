package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelDescriptor;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code models} part of the {@code agents} health
 * contributor: one indicator per {@code agent.providers} entry with
 * {@code health.enabled=true} (off by default, as a check costs a request to the
 * provider), calling {@link dev.agcore.model.ChatModel#checkHealth()} with a timeout of
 * 10 seconds.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ChatModelAutoConfiguration.class, before = AgentsHealthAutoConfiguration.class)
@ConditionalOnClass(ReactiveHealthIndicator.class)
@EnableConfigurationProperties(AgentProperties.class)
public final class AgentModelsHealthAutoConfiguration {

	static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Bean
	@ConditionalOnMissingBean(name = "modelsHealthContribution")
	@ConditionalOnBean(ChatModelRegistry.class)
	@Conditional(OnProviderHealthEnabled.class)
	AgentHealthContribution modelsHealthContribution(AgentProperties properties, ChatModelRegistry models) {
		Map<String, ReactiveHealthIndicator> indicators = new LinkedHashMap<>();
		properties.getProviders().forEach((name, provider) -> {
			if (provider.getHealth().isEnabled()) {
				checkedModel(models, name)
					.ifPresent((model) -> indicators.put(name, new ModelHealthIndicator(name, model, TIMEOUT)));
			}
		});
		return new AgentHealthContribution("models", CompositeReactiveHealthContributor.fromMap(indicators));
	}

	/**
	 * The model whose health check stands for a provider: the provider's own model, else
	 * (a provider that is only the connection of named models) its first named model.
	 */
	private static Optional<ChatModel> checkedModel(ChatModelRegistry models, String provider) {
		Optional<ChatModel> own = models.find(provider);
		if (own.isPresent()) {
			return own;
		}
		return models.descriptors()
			.stream()
			.filter((descriptor) -> ModelDescriptor.KIND_MODEL.equals(descriptor.kind())
					&& provider.equals(descriptor.provider()))
			.findFirst()
			.flatMap((descriptor) -> models.find(descriptor.name()));
	}

	/** Matches when at least one provider turns its health check on. */
	static final class OnProviderHealthEnabled extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Map<String, AgentProperties.Provider> providers = Binder.get(context.getEnvironment())
				.bind("agent.providers", Bindable.mapOf(String.class, AgentProperties.Provider.class))
				.orElse(Map.of());
			boolean enabled = providers.values().stream().anyMatch((provider) -> provider.getHealth().isEnabled());
			return enabled ? ConditionOutcome.match("a provider has health.enabled=true")
					: ConditionOutcome.noMatch("no provider has health.enabled=true");
		}

	}

}
