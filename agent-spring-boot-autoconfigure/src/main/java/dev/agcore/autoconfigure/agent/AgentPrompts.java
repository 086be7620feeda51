package dev.agcore.autoconfigure.agent;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.AgentEnvironmentProperties;
import dev.agcore.autoconfigure.AgentProperties;
import dev.agcore.prompt.PromptTemplate;
import dev.agcore.prompt.PromptTemplates;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.EnvironmentContext;
import dev.agcore.runtime.SystemPromptTemplate;
import dev.agcore.runtime.SystemPromptVariables;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.StringUtils;

/**
 * Gives a configured agent the layers of its system prompt: the base prompt, its own
 * prompt as a template when {@code system-prompt-template} names one, and its environment.
 */
final class AgentPrompts {

	private final @Nullable String baseSystemPrompt;

	private final ObjectProvider<PromptTemplates> templates;

	private final List<SystemPromptVariables> variables;

	AgentPrompts(@Nullable String baseSystemPrompt, ObjectProvider<PromptTemplates> templates,
			List<SystemPromptVariables> variables) {
		this.baseSystemPrompt = baseSystemPrompt;
		this.templates = templates;
		this.variables = List.copyOf(variables);
	}

	/** Return the base prompt of every agent, {@code agent.base-system-prompt}. */
	@Nullable String baseSystemPrompt() {
		return this.baseSystemPrompt;
	}

	/**
	 * Set the prompt layers of an agent on its builder.
	 * @param prefix the agent's properties, {@code agent.agents.<name>}
	 * @param spec the agent's properties
	 * @param builder the agent's builder
	 * @throws AgentConfigurationException naming the property at fault
	 */
	void configure(String prefix, AgentProperties.AgentSpec spec, AgentBuilder builder) {
		String base = (spec.getBaseSystemPrompt() != null) ? spec.getBaseSystemPrompt() : this.baseSystemPrompt;
		builder.basePrompt(base);
		builder.environment(environment(prefix + ".environment", spec.getEnvironment()));
		if (StringUtils.hasText(spec.getSystemPromptTemplate())) {
			if (StringUtils.hasText(spec.getSystemPrompt())) {
				throw new AgentConfigurationException(
						prefix + ".system-prompt and " + prefix + ".system-prompt-template are both set",
						"Keep one: the template replaces the text.");
			}
			builder.systemPrompt(new SystemPromptTemplate(
					template(prefix + ".system-prompt-template", spec.getSystemPromptTemplate().strip()),
					Map.copyOf(spec.getSystemPromptVariables()), this.variables));
		}
		else if (!spec.getSystemPromptVariables().isEmpty()) {
			throw new AgentConfigurationException(
					prefix + ".system-prompt-variables is set but " + prefix + ".system-prompt-template is not",
					"Name the template the variables are for in " + prefix + ".system-prompt-template, "
							+ "or remove the variables.");
		}
	}

	private PromptTemplate template(String property, String name) {
		PromptTemplates registry = this.templates.getIfAvailable();
		if (registry == null) {
			throw new AgentConfigurationException(property + " names a template, but there are no prompt templates",
					"Add com.github.jknack:handlebars (the starter brings it), or use system-prompt instead.");
		}
		return registry.find(name)
			.orElseThrow(() -> new AgentConfigurationException(
					property + ": no prompt template '" + name + "'; templates: " + registry.names(),
					"Add the template to agent.prompts.location (prompts/" + name + ".hbs by default) or fix the name."));
	}

	private static EnvironmentContext environment(String prefix, AgentEnvironmentProperties properties) {
		ZoneId zone = ZoneId.of("UTC");
		if (StringUtils.hasText(properties.getTimeZone())) {
			try {
				zone = ZoneId.of(properties.getTimeZone().strip());
			}
			catch (DateTimeException ex) {
				throw new AgentConfigurationException(
						prefix + ".time-zone: '" + properties.getTimeZone() + "' is not a time zone",
						"Use a region such as Europe/Berlin, or an offset such as +01:00.");
			}
		}
		return new EnvironmentContext(properties.isDate(), zone, properties.isLocale(), properties.getFacts());
	}

}
