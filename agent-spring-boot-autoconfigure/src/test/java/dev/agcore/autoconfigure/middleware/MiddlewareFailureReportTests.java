package dev.agcore.autoconfigure.middleware;

import java.util.List;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.middleware.annotation.BeforeAgent;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A hook method with a wrong signature fails startup with the failure analyzer's report.
 */
@ExtendWith(OutputCaptureExtension.class)
class MiddlewareFailureReportTests {

	@Test
	void wrongHookSignatureIsReportedWithDescriptionAndAction(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TestApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid middleware hook in bean 'wrongHooks': Method " + WrongHooks.class.getName()
					+ "#greet is annotated @BeforeAgent but has the wrong signature; expected "
					+ "void name([AgentContext context,] List<Message> messages)")
			.contains("Action:")
			.contains("Fix the method's signature, or remove its hook annotation.");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
			ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class })
	static class TestApplication {

		@Bean
		ChatModel model() {
			return ScriptedChatModel.replaying();
		}

		@Bean
		WrongHooks wrongHooks() {
			return new WrongHooks();
		}

	}

	static class WrongHooks {

		@BeforeAgent
		public String greet(List<Message> messages) {
			return "hello";
		}

	}

}
