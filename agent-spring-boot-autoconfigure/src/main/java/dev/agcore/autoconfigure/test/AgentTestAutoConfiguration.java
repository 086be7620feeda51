package dev.agcore.autoconfigure.test;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The models of an {@link AgentTest @AgentTest}: one {@link ScriptedChatModel} answers
 * for every model of {@code agent.models} and {@code agent.providers} (none is built, so
 * no key or network is needed); when neither is configured it is the only model, under
 * its bean name. {@link ChatModel} beans the test imports stay as they are. Imported by
 * {@code @AgentTest} only, never by the application.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = { ChatModelAutoConfiguration.class, AgentMetricsAutoConfiguration.class })
@EnableConfigurationProperties(AgentProperties.class)
public final class AgentTestAutoConfiguration {

	static final String SCRIPTED_MODEL_BEAN_NAME = "scriptedChatModel";

	@Bean(SCRIPTED_MODEL_BEAN_NAME)
	@ConditionalOnMissingBean
	ScriptedChatModel scriptedChatModel() {
		return ScriptedChatModel.builder().build();
	}

	@Bean
	@ConditionalOnMissingBean
	ChatModelRegistry chatModelRegistry(AgentProperties properties, ScriptedChatModel scripted,
			ListableBeanFactory beanFactory) {
		Map<String, ChatModel> models = new LinkedHashMap<>();
		properties.getModels().keySet().forEach((name) -> models.put(name, scripted));
		Map<String, ChatModel> providers = new LinkedHashMap<>();
		properties.getProviders().keySet().forEach((name) -> providers.put(name, scripted));
		Map<String, ChatModel> beans = new LinkedHashMap<>();
		for (String name : beanFactory.getBeanNamesForType(ChatModel.class)) {
			ChatModel bean = beanFactory.getBean(name, ChatModel.class);
			if (bean != scripted || (models.isEmpty() && providers.isEmpty())) {
				beans.put(name, bean);
			}
		}
		return new ChatModelRegistry(models, providers, beans, Map.of());
	}

	@Bean
	@ConditionalOnMissingBean
	MeterRegistry meterRegistry() {
		return new SimpleMeterRegistry();
	}

}
