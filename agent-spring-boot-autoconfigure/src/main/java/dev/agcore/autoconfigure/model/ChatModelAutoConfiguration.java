package dev.agcore.autoconfigure.model;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelDescriptor;
import dev.agcore.provider.support.RateLimitListener;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ChatModelRegistry}:
 * a model per {@code agent.models} entry and per {@code agent.providers} entry, wrapped
 * in retries, plus the user's {@link ChatModel} beans (which are used as they are,
 * without added retries). With a {@link MeterRegistry}, provider rate-limit headers are
 * recorded as gauges by {@link RateLimitMetrics}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@EnableConfigurationProperties(AgentProperties.class)
public final class ChatModelAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ProviderConnectionPools agentProviderConnectionPools() {
		return new ProviderConnectionPools();
	}

	@Bean
	@ConditionalOnMissingBean
	ChatModelRegistry chatModelRegistry(AgentProperties properties, ListableBeanFactory beanFactory,
			ObjectProvider<WebClient.Builder> webClientBuilder, ObjectProvider<RetryRegistry> retryRegistry,
			ObjectProvider<RateLimitListener> rateLimitListener, ProviderConnectionPools connectionPools) {
		// Boot's builder carries its codecs, customizers and HTTP client observations; asked for
		// when a model sends its first request: creating it (its connector, DNS resolver and
		// codecs) was the costliest of the starter's beans at startup
		ProviderModels providerModels = new ProviderModels(properties.getRetry(),
				() -> webClientBuilder.getIfAvailable(WebClient::builder), retryRegistry.getIfUnique(),
				rateLimitListener.getIfUnique(() -> RateLimitListener.NONE), connectionPools);
		Map<String, ChatModel> providers = new LinkedHashMap<>();
		Map<String, ModelDescriptor> descriptors = new LinkedHashMap<>();
		Set<String> servingNamedModels = providersOfNamedModels(properties);
		properties.getProviders().forEach((name, provider) -> {
			if (!StringUtils.hasText(provider.getModel()) && servingNamedModels.contains(name)) {
				// a connection for named models only: it has no model of its own to register
				return;
			}
			ChatModel model = providerModels.create(name, provider);
			providers.put(name, model);
			descriptors.put(name, new ModelDescriptor(name, ModelDescriptor.KIND_PROVIDER, name,
					ProviderModels.type(name, provider), model.modelName(), null, null, model.capabilities()));
		});
		// by name, never by type: any number of ChatModel beans, none of them primary
		Map<String, ChatModel> beans = new LinkedHashMap<>();
		for (String name : ContextBeans.beanNamesForType(beanFactory, ChatModel.class, true, true)) {
			beans.put(name, beanFactory.getBean(name, ChatModel.class));
		}
		NamedModels named = new NamedModels(properties, providerModels, beans);
		descriptors.putAll(named.descriptors());
		try {
			return new ChatModelRegistry(named.models(), providers, beans, descriptors);
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException(ex.getMessage(),
					"Rename one of them: model, provider and ChatModel bean names must be unique.", ex);
		}
	}

	/** The providers that named models are built on, explicitly or as the only one. */
	private static Set<String> providersOfNamedModels(AgentProperties properties) {
		Set<String> names = new HashSet<>();
		for (AgentProperties.ModelSpec spec : properties.getModels().values()) {
			if (StringUtils.hasText(spec.getProvider())) {
				names.add(spec.getProvider().strip());
			}
			else if (properties.getProviders().size() == 1) {
				names.addAll(properties.getProviders().keySet());
			}
		}
		return names;
	}

	// member classes are processed first: the listener exists before the registry asks
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(MeterRegistry.class)
	static class RateLimitMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(RateLimitListener.class)
		RateLimitMetrics rateLimitMetrics(MeterRegistry meterRegistry) {
			return new RateLimitMetrics(meterRegistry);
		}

	}

}
