package dev.agcore.autoconfigure.prompt;

import com.github.jknack.handlebars.Handlebars;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.prompt.PromptTemplates;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.io.support.ResourcePatternUtils;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for prompt templates: a
 * {@link PromptTemplates} registry holding the templates of {@code agent.prompts.location}
 * ({@code classpath:prompts/} by default), compiled and checked at startup, so that a
 * template that does not parse, or includes a missing partial, fails startup naming its
 * file.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(Handlebars.class)
@EnableConfigurationProperties(PromptProperties.class)
public final class PromptTemplatesAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	PromptTemplates promptTemplates(PromptProperties properties, ResourceLoader resourceLoader) {
		String location = properties.getLocation();
		if (location == null || location.isBlank()) {
			throw new AgentConfigurationException("agent.prompts.location is empty",
					"Set agent.prompts.location to a folder such as classpath:prompts/, or remove it.");
		}
		String extension = properties.getFileExtension();
		if (extension == null || extension.isBlank()) {
			throw new AgentConfigurationException("agent.prompts.file-extension is empty",
					"Set agent.prompts.file-extension to the templates' extension, such as .hbs, or remove it.");
		}
		return PromptFolder.load(location.strip(), extension.strip(),
				ResourcePatternUtils.getResourcePatternResolver(resourceLoader));
	}

}
