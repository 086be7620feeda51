package dev.agcore.autoconfigure.tool;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.retrieval.Retriever;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolRegistry;
import dev.agcore.tool.binding.BeanValidationArgumentValidator;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;
import dev.agcore.tool.typed.TypedTool;
import jakarta.validation.Validator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for tools:
 * <ul>
 * <li>the {@link ToolBinding} shared by all tools: the application's {@link JsonMapper}
 * and, when there is a Bean Validation {@link Validator} bean, that validator;</li>
 * <li>the {@link ToolRegistry}: every {@link ToolCallback} bean, every {@link TypedTool}
 * bean and every {@link Tool @Tool} method of a singleton bean;</li>
 * <li>the {@link SecretResolver}: the {@link Environment}, restricted to
 * {@code agent.secrets.allowed};</li>
 * <li>{@link AgentTools}, which gives each configured agent its tools, permission policy
 * (from {@code agent.agents.<name>.permissions} and the {@link ToolPermissionPolicy}
 * beans), secrets, {@link KeyValueStore} and result bound, and the tools of every
 * {@link AgentToolSource} bean (MCP servers) within its scope.</li>
 * </ul>
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ConversationStoreAutoConfiguration.class,
		afterName = { "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
				"org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration" })
@EnableConfigurationProperties({ ToolProperties.class, SecretProperties.class })
public final class ToolAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ToolBinding toolBinding(ObjectProvider<JsonMapper> jsonMapper) {
		return binding(jsonMapper);
	}

	@Bean
	@ConditionalOnMissingBean
	ToolRegistry toolRegistry(ConfigurableListableBeanFactory beanFactory, ToolBinding toolBinding) {
		return new ToolBeans(beanFactory, toolBinding).registry();
	}

	@Bean
	@ConditionalOnMissingBean
	SecretResolver secretResolver(Environment environment, SecretProperties properties) {
		for (String name : properties.getAllowed()) {
			if (!StringUtils.hasText(name)) {
				throw new AgentConfigurationException("agent.secrets.allowed has an empty entry",
						"Remove the empty entry from agent.secrets.allowed.");
			}
		}
		return new EnvironmentSecretResolver(environment, properties.getAllowed());
	}

	@Bean
	@ConditionalOnMissingBean
	AgentTools agentTools(ToolRegistry toolRegistry, ToolProperties properties,
			ObjectProvider<ToolPermissionPolicy> permissionPolicies, SecretResolver secretResolver,
			KeyValueStore keyValueStore, ObjectProvider<Retriever> retriever, ObjectProvider<AgentToolSource> sources) {
		SecretDeclarations.check(toolRegistry, secretResolver);
		// one store for all agents, so that they share long-term memory
		return new AgentTools(toolRegistry, properties, permissionPolicies.orderedStream().toList(), secretResolver,
				keyValueStore, retriever::getIfUnique, sources.orderedStream().toList());
	}

	private static ToolBinding binding(ObjectProvider<JsonMapper> jsonMapper) {
		// Boot's mapper carries the application's Jackson settings (naming strategy, modules)
		return ToolBinding.of(jsonMapper.getIfUnique(AgentJson::mapper));
	}

	// member classes are processed first, so this wins over the binding above
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Validator.class)
	@ConditionalOnBean(Validator.class)
	static class BeanValidationToolBindingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ToolBinding beanValidationToolBinding(ObjectProvider<JsonMapper> jsonMapper,
				ObjectProvider<Validator> validator) {
			ToolBinding binding = binding(jsonMapper);
			Validator unique = validator.getIfUnique();
			// several validators and none primary: keep the default one of the class path
			return (unique != null) ? binding.withValidator(new BeanValidationArgumentValidator(unique)) : binding;
		}

	}

}
