package dev.agcore.autoconfigure.observation;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ChatObservationConvention;
import dev.agcore.observation.DefaultChatObservationConvention;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentObservationAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class AgentObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentObservationAutoConfiguration.class));

	@Test
	void observesNothingWithoutObservationRegistry() {
		this.contextRunner.run((context) -> {
			AgentObservations observations = context.getBean(AgentObservations.class);
			assertThat(observations.isNoop()).isTrue();
			assertThat(observations.contentCapture().enabled()).isFalse();
		});
	}

	@Test
	void usesTheRegistryOfBootObservationAutoConfiguration() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(AgentObservations.class).registry())
				.isSameAs(context.getBean(ObservationRegistry.class)));
	}

	@Test
	void aConventionBeanReplacesTheDefault() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withBean(ChatObservationConvention.class, RenamedChatConvention::new)
			.run((context) -> {
				Agent.builder()
					.name("helper")
					.model(ScriptedChatModel.replaying(ScriptedChatModel.text("Hi.")))
					.conversationStore(new InMemoryConversationStore())
					.observations(context.getBean(AgentObservations.class))
					.build()
					.call("s1", "Hello");
				TestObservationRegistryAssert.assertThat(registry)
					.hasNumberOfObservationsWithNameEqualTo("my.chat", 1)
					.hasNumberOfObservationsWithNameEqualTo("gen_ai.invoke_agent", 1);
			});
	}

	@Test
	void contentCaptureIsOffByDefaultAndWarnsWhenOn(CapturedOutput output) {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create).run((context) -> {
			assertThat(context.getBean(AgentObservations.class).contentCapture().enabled()).isFalse();
			assertThat(output).doesNotContain("capture-content");
		});
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withPropertyValues("agent.observations.capture-content=true",
					"agent.observations.max-content-length=100")
			.run((context) -> {
				AgentObservations observations = context.getBean(AgentObservations.class);
				assertThat(observations.contentCapture().enabled()).isTrue();
				assertThat(observations.contentCapture().maxLength()).isEqualTo(100);
				assertThat(observations.contentCapture().clean("mail jane.doe@example.com"))
					.isEqualTo("mail [REDACTED_EMAIL]");
				assertThat(output).contains("WARN").contains("agent.observations.capture-content is on");
			});
	}

	@Test
	void aNonPositiveMaxContentLengthFailsStartup() {
		this.contextRunner.withPropertyValues("agent.observations.max-content-length=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.observations.max-content-length"));
	}

	static class RenamedChatConvention extends DefaultChatObservationConvention implements ChatObservationConvention {

		@Override
		public String getName() {
			return "my.chat";
		}

	}

}
