package dev.agcore.autoconfigure.aot;

import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ResourceHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Includes the class path folders the application's configuration names, as seen at
 * build time, in a native image: the prompt templates ({@code agent.prompts.location})
 * and the knowledge pages ({@code agent.knowledge.path}). A folder outside the class
 * path (a {@code file:} location) is read at run time and needs no hint; neither does the
 * class path root, which is too wide to include.
 */
final class AgentResourcesAotProcessor implements BeanFactoryInitializationAotProcessor {

	/** The properties naming class path folders that are read at run time. */
	static final String[] FOLDER_PROPERTIES = { "agent.prompts.location", "agent.knowledge.path" };

	private static final String[] CLASSPATH_PREFIXES = { "classpath*:", "classpath:" };

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		if (!beanFactory.containsBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME)) {
			return null;
		}
		Environment environment = beanFactory.getBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME,
				Environment.class);
		Set<String> patterns = patterns(environment);
		if (patterns.isEmpty()) {
			return null;
		}
		return (context, code) -> {
			ResourceHints resources = context.getRuntimeHints().resources();
			patterns.forEach(resources::registerPattern);
		};
	}

	static Set<String> patterns(Environment environment) {
		Set<String> patterns = new LinkedHashSet<>();
		for (String property : FOLDER_PROPERTIES) {
			String folder = classpathFolder(environment.getProperty(property));
			// the class path root itself is too wide to include; such an application lists its files
			if (folder != null && !folder.isEmpty()) {
				patterns.add(folder + "/**");
			}
		}
		return patterns;
	}

	private static @Nullable String classpathFolder(@Nullable String location) {
		if (location == null) {
			return null;
		}
		for (String prefix : CLASSPATH_PREFIXES) {
			if (location.startsWith(prefix)) {
				String folder = location.substring(prefix.length()).trim();
				while (folder.startsWith("/")) {
					folder = folder.substring(1);
				}
				while (folder.endsWith("/")) {
					folder = folder.substring(0, folder.length() - 1);
				}
				return folder;
			}
		}
		return null;
	}

}
