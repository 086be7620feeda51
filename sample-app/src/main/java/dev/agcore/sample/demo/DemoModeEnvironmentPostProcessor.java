package dev.agcore.sample.demo;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Switches the sample to demo mode when there is nothing to talk to: no
 * {@code agent.providers.openai.api-key} (that is, no {@code OPENAI_API_KEY}) and
 * {@code agent.providers.openai.base-url} still pointing at OpenAI. Demo mode points the
 * {@code assistant} and {@code planner} agents at the scripted {@code demo} model instead
 * of {@code openai}.
 * Force it either way with {@code sample.demo.enabled=true|false}.
 */
public class DemoModeEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String ENABLED = "sample.demo.enabled";

	private static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Boolean forced = environment.getProperty(ENABLED, Boolean.class);
		boolean demo = (forced != null) ? forced : isNothingToTalkTo(environment);
		if (demo) {
			// in the order of application.yml: the agents are bound in the order this source names them
			Map<String, Object> settings = new LinkedHashMap<>();
			settings.put(ENABLED, "true");
			settings.put("agent.agents.assistant.model", DemoConfiguration.MODEL_BEAN);
			settings.put("agent.agents.planner.model", DemoConfiguration.MODEL_BEAN);
			environment.getPropertySources().addFirst(new MapPropertySource("sampleDemoMode", settings));
		}
	}

	private static boolean isNothingToTalkTo(ConfigurableEnvironment environment) {
		String apiKey = environment.getProperty("agent.providers.openai.api-key");
		String baseUrl = environment.getProperty("agent.providers.openai.base-url", OPENAI_BASE_URL);
		return !StringUtils.hasText(apiKey) && OPENAI_BASE_URL.equals(baseUrl.replaceAll("/+$", ""));
	}

}
