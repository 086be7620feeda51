package dev.agcore.docs.testing;

import java.util.Map;

import dev.agcore.autoconfigure.test.AgentTest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @AgentTest} of docs/testing.md: the agent of the properties runs on the scripted
 * model with the {@link WeatherTools} bean of {@link WeatherApplication}'s package.
 */
// tag::agent-test[]
@AgentTest(properties = { "agent.providers.openai.api-key=not-used", "agent.providers.openai.model=gpt-4o-mini",
		"agent.agents.weather.model=openai", "agent.agents.weather.system-prompt=You report the weather.",
		"agent.agents.weather.tools=get_weather" })
class WeatherAgentSliceTests {

	@Autowired
	@Qualifier("weather")
	private Agent weather;

	@Autowired
	private ScriptedChatModel model;

	@Autowired
	private MeterRegistry meters;

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

}
// end::agent-test[]
