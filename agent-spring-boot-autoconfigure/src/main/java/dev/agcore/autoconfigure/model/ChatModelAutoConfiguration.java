package dev.agcore.autoconfigure.model;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.ChatModelRegistry;
import dev.agcore.autoconfigure.support.ContextBeans;
import dev.agcore.model.ChatModel;
import dev.agcore.provider.support.RateLimitListener;
import io.github.resilience4j.retry.RetryRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ChatModelRegistry}:
 * a model per {@code agent.providers} entry, wrapped in retries, plus the user's
 * {@link ChatModel} beans (which are used as they are, without added retries).
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration")
@EnableConfigurationProperties(AgentProperties.class)
public final class ChatModelAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ChatModelRegistry chatModelRegistry(AgentProperties properties, ListableBeanFactory beanFactory,
			ObjectProvider<WebClient.Builder> webClientBuilder, ObjectProvider<RetryRegistry> retryRegistry) {
		// Boot's builder carries its codecs, customizers and HTTP client observations
		ProviderModels providerModels = new ProviderModels(properties.getRetry(),
				() -> webClientBuilder.getIfAvailable(WebClient::builder), retryRegistry.getIfUnique(), RateLimitListener.NONE);
		Map<String, ChatModel> providers = new LinkedHashMap<>();
		properties.getProviders().forEach((name, provider) -> providers.put(name, providerModels.create(name, provider)));
		Map<String, ChatModel> beans = new LinkedHashMap<>();
		for (String name : ContextBeans.beanNamesForType(beanFactory, ChatModel.class, true, true)) {
			beans.put(name, beanFactory.getBean(name, ChatModel.class));
		}
		return new ChatModelRegistry(providers, beans);
	}

}
