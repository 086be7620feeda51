package dev.agcore.sample.demo;

import dev.agcore.model.ChatModel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The scripted model of demo mode, as a {@link ChatModel} bean named {@value #MODEL_BEAN}
 * that the sample's agents refer to. Only active in demo mode, see
 * {@link DemoModeEnvironmentPostProcessor}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(DemoModeEnvironmentPostProcessor.ENABLED)
public class DemoConfiguration {

	static final String MODEL_BEAN = "demo";

	private static final Log logger = LogFactory.getLog(DemoConfiguration.class);

	@Bean(MODEL_BEAN)
	ChatModel demoModel() {
		return DemoScriptedModel.create();
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> demoModeBanner(Environment environment) {
		return (event) -> {
			String port = environment.getProperty("local.server.port", "8080");
			String basePath = environment.getProperty("agent.web.base-path", "/agents");
			String page = environment.getProperty("agent.web.ui.enabled", Boolean.class, false)
					? "Chat with them at http://localhost:" + port + basePath + "/ui, or try: " : "Try: ";
			logger.info("DEMO MODE: no OPENAI_API_KEY, so the agents (assistant, planner, researcher, librarian) "
					+ "run on a scripted stand-in (not a model); see docs/sample-app.md. "
					+ page + "curl -s localhost:" + port + basePath + "/assistant/invoke -H 'Content-Type: application/json' "
					+ "-d '{\"sessionId\":\"demo\",\"message\":\"What is the weather in Paris?\"}'   or stream it: curl -N localhost:"
					+ port + basePath + "/assistant/stream -H 'Content-Type: application/json' "
					+ "-d '{\"sessionId\":\"demo\",\"message\":\"Convert 10 km to miles\"}'");
		};
	}

}
