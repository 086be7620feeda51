package dev.agcore.autoconfigure;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

import dev.agcore.runtime.Agent;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

/**
 * Explains a missing {@link Agent} bean in the starter's terms: agents come from
 * {@code agent.agents.<name>}, each needing a provider, instead of Spring's generic
 * "required a bean of type Agent". Ordered first: Spring Boot's own analyzer for missing
 * beans would otherwise answer before it whenever Boot's jar comes first on the
 * classpath, as it does in a packaged application.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class MissingAgentFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

	private static final String EXAMPLE = """
			agent:
			  providers:
			    openai:
			      base-url: https://api.openai.com/v1
			      api-key: ${OPENAI_API_KEY}
			      model: gpt-4o-mini
			  agents:
			    assistant:
			      provider: openai""";

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
		if (!isAgent(cause.getResolvableType())) {
			return null;
		}
		if (cause instanceof NoUniqueBeanDefinitionException unique) {
			return new FailureAnalysis("An Agent is injected, but " + unique.getNumberOfBeansFound()
					+ " agents are configured: " + names(unique),
					"Inject the agent by name, e.g. @Qualifier(\"" + firstName(unique) + "\") Agent agent, "
							+ "or mark one @Primary.",
					cause);
		}
		return new FailureAnalysis("An Agent is injected, but no agent is configured. An Agent bean is created "
				+ "for each agent.agents.<name>, which needs a model: a provider under agent.providers.<name> "
				+ "(or a ChatModel bean of yours).",
				"Configure a provider and an agent, for example:\n\n" + EXAMPLE + "\n\nSee docs/configuration.md.",
				cause);
	}

	private static Set<String> names(NoUniqueBeanDefinitionException unique) {
		Collection<String> found = unique.getBeanNamesFound();
		return (found != null) ? new TreeSet<>(found) : new TreeSet<>();
	}

	private static String firstName(NoUniqueBeanDefinitionException unique) {
		Set<String> names = names(unique);
		return names.isEmpty() ? "assistant" : names.iterator().next();
	}

	private static boolean isAgent(@Nullable ResolvableType type) {
		return type != null && type.resolve() != null && Agent.class.isAssignableFrom(type.resolve());
	}

}
