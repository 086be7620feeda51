package dev.agcore.sample.demo;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.util.StringUtils;

/**
 * Switches the sample to demo mode when there is nothing to talk to: no
 * {@code agent.providers.openai.api-key} (that is, no {@code OPENAI_API_KEY}) and
 * {@code agent.providers.openai.base-url} still pointing at OpenAI. Demo mode points every
 * agent configured with {@code model: openai} (the assistant, planner, researcher and
 * librarian of {@code application.yml}) at the scripted {@code demo} model instead.
 * Force it either way with {@code sample.demo.enabled=true|false}.
 */
public class DemoModeEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String ENABLED = "sample.demo.enabled";

	private static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

	private static final String OPENAI = "openai";

	private static final Pattern AGENT_MODEL = Pattern.compile("agent\\.agents\\.([^.\\[\\]]+)\\.model");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Boolean forced = environment.getProperty(ENABLED, Boolean.class);
		boolean demo = (forced != null) ? forced : isNothingToTalkTo(environment);
		if (demo) {
			// in the order of application.yml: the agents are bound in the order this source names them
			Map<String, Object> settings = new LinkedHashMap<>();
			settings.put(ENABLED, "true");
			for (String agent : agentsOnOpenAi(environment)) {
				settings.put("agent.agents." + agent + ".model", DemoConfiguration.MODEL_BEAN);
			}
			environment.getPropertySources().addFirst(new MapPropertySource("sampleDemoMode", settings));
		}
	}

	/** The agents whose {@code model} is the {@code openai} provider, in the order they are configured. */
	private static Set<String> agentsOnOpenAi(ConfigurableEnvironment environment) {
		Set<String> agents = new LinkedHashSet<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					Matcher model = AGENT_MODEL.matcher(name);
					if (model.matches() && OPENAI.equals(environment.getProperty(name))) {
						agents.add(model.group(1));
					}
				}
			}
		}
		return agents;
	}

	private static boolean isNothingToTalkTo(ConfigurableEnvironment environment) {
		String apiKey = environment.getProperty("agent.providers.openai.api-key");
		String baseUrl = environment.getProperty("agent.providers.openai.base-url", OPENAI_BASE_URL);
		return !StringUtils.hasText(apiKey) && OPENAI_BASE_URL.equals(baseUrl.replaceAll("/+$", ""));
	}

}
