package dev.agcore.autoconfigure.test.sample;

import java.util.Map;

import dev.agcore.autoconfigure.test.AgentTest;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;

import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link AgentTest @AgentTest} on a small application: the agents of its properties run
 * on the scripted model, with the application's tool beans and nothing else, though the
 * provider they name would need a key and a network.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@AgentTest(properties = { "agent.providers.openai.api-key=not-used", "agent.providers.openai.model=gpt-4o-mini",
		"agent.agents.weather.model=openai", "agent.agents.weather.system-prompt=You report the weather.",
		"agent.agents.weather.tools=get_weather" })
class AgentTestTests {

	@Autowired
	@Qualifier("weather")
	private Agent weather;

	@Autowired
	private ScriptedChatModel model;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private ApplicationContext context;

	@Test
	void agentOfThePropertiesRunsOnTheScriptedModelWithTheToolBean() {
		this.model.script().thenCallTool("get_weather", Map.of("city", "Paris")).thenReply("Sunny in Paris");

		AgentResult result = this.weather.call("s1", "Weather in Paris?");

		assertThat(result).isCompleted()
			.endedWith("Sunny in Paris")
			.calledTool("get_weather")
			.withArgument("city", "Paris")
			.withResult("sunny, 24°C in Paris");
		assertThat(this.model.lastRequest()).systemPromptContains("You report the weather.")
			.hasToolNamed("get_weather");
		assertThat(this.meters).hasTimer("agent.tool.calls").withTag("tool", "get_weather").hasCount(1);
	}

	@Test
	void streamedTurnRunsOnTheScriptedModel() {
		this.model.script().thenReason("Look it up.", "It is sunny.");

		assertThat(this.weather.stream(AgentRequest.of("s2", "Weather?"))).hasReasoning("Look it up.")
			.hasText("It is sunny.");
	}

	@Test
	@Order(1)
	void leavesAStepUnusedAndARequestRecorded() {
		this.model.script().thenReply("used").thenReply("unused");

		this.weather.call("s4", "Hi");

		assertThat(this.model.requests()).hasSize(1);
		assertThat(this.model.script().remaining()).isOne();
	}

	@Test
	@Order(2)
	void scriptedModelIsResetBeforeEachTest() {
		assertThat(this.model.requests()).isEmpty();
		assertThat(this.model.script().remaining()).isZero();
	}

	@Test
	void onlyToolBeansAreScannedAndTheProviderIsNeverBuilt() {
		assertThat(this.context.getBeansOfType(WeatherTools.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(GreetingService.class)).isEmpty();
		ChatModelRegistry models = this.context.getBean(ChatModelRegistry.class);
		assertThat(models.get("openai")).isSameAs(this.model);
		assertThat(models.names()).containsExactly("openai");
	}

	@Test
	void unscriptedRequestFailsTheTurnSayingHowToScriptIt() {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> this.weather.call("s3", "Hello?"))
			.satisfies((ex) -> assertThat(rootMessage(ex)).contains("no response left for request #1")
				.contains("script().thenReply"));
	}

	private static String rootMessage(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return String.valueOf(cause.getMessage());
	}

}
