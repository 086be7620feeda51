package dev.agcore.docs.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ModelDescriptor;
import dev.agcore.testing.ScriptedChatModel;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Application contexts that start a docs YAML snippet as an application would: every
 * auto-configuration on the classpath (as {@code @SpringBootApplication} has them), the
 * snippet as {@code application.yml}, and every configured provider and named model
 * answered by a {@link ScriptedChatModel} instead of the network. The providers are still
 * built from the snippet first, so a snippet that does not bind or validate fails.
 */
public final class SnippetContexts {

	/** Placeholders the snippets use for keys: a value so that they resolve. */
	private static final String[] ENVIRONMENT = { "OPENAI_API_KEY=sk-docs", "ANTHROPIC_API_KEY=sk-docs",
			"GEMINI_API_KEY=docs", "DEEPSEEK_API_KEY=sk-docs", "AZURE_OPENAI_API_KEY=docs", "OLLAMA_API_KEY=docs" };

	private SnippetContexts() {
	}

	/**
	 * A runner for a YAML snippet whose models all answer with the same text.
	 * @param yaml the snippet, a classpath resource such as {@code getting-started/application.yml}
	 * @return the runner
	 */
	public static ReactiveWebApplicationContextRunner yaml(String yaml) {
		return yaml(yaml, ScriptedChatModel.answering((request) -> ScriptedChatModel.text("Hello from the docs")));
	}

	/**
	 * A runner for a YAML snippet whose models all answer from a script.
	 * @param yaml the snippet, a classpath resource
	 * @param model the model answering for every provider and named model
	 * @return the runner
	 */
	public static ReactiveWebApplicationContextRunner yaml(String yaml, ChatModel model) {
		return new ReactiveWebApplicationContextRunner().withUserConfiguration(Application.class)
			.withPropertyValues(ENVIRONMENT)
			.withInitializer((context) -> {
				for (PropertySource<?> source : load(yaml)) {
					context.getEnvironment().getPropertySources().addFirst(source);
				}
			})
			.withBean("docsScriptedModels", BeanPostProcessor.class, () -> new ScriptedModels(model));
	}

	/** What {@code @SpringBootApplication} switches on, without scanning this module. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

	private static List<PropertySource<?>> load(String yaml) {
		try {
			ClassPathResource resource = new ClassPathResource(yaml);
			if (!resource.exists()) {
				throw new IllegalArgumentException("No YAML snippet " + yaml + " on the test classpath");
			}
			return new YamlPropertySourceLoader().load("docs snippet " + yaml, resource);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Replaces the registry's configured models (not the user's beans) by the scripted one. */
	private record ScriptedModels(ChatModel model) implements BeanPostProcessor {

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof ChatModelRegistry registry)) {
				return bean;
			}
			Map<String, ChatModel> models = new LinkedHashMap<>();
			registry.modelNames().forEach((name) -> models.put(name, this.model));
			Map<String, ChatModel> providers = new LinkedHashMap<>();
			registry.providerNames().forEach((name) -> providers.put(name, this.model));
			Map<String, ChatModel> beans = new LinkedHashMap<>();
			registry.beanNames().forEach((name) -> beans.put(name, registry.get(name)));
			Map<String, ModelDescriptor> descriptors = new LinkedHashMap<>();
			registry.descriptors().forEach((descriptor) -> descriptors.put(descriptor.name(), descriptor));
			return new ChatModelRegistry(models, providers, beans, descriptors);
		}

	}

}
