package dev.agcore.docs.testing;

import java.util.Map;

import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

// tag::import[]
import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
// end::import[]
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The assertions of docs/testing.md, on real turns of an agent with a scripted model and
 * the {@code get_weather} tool.
 */
class AssertionsTests {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ScriptedChatModel model = ScriptedChatModel.builder()
		.thenCallTool("get_weather", Map.of("city", "Paris", "days", 3))
		.thenReply("Sunny in Paris")
		.build();

	private final Agent agent = Agent.builder()
		.name("weather")
		.systemPrompt("You report the weather.")
		.model(this.model)
		.metrics(new MicrometerAgentMetrics(this.meters))
		.tools(MethodTools.from(new WeatherTools()))
		.build();

	@Test
	void resultAssertionsPassOnWhatTheTurnDid() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		// tag::result[]
		assertThat(result).isCompleted()
			.endedWith("Sunny in Paris")
			.calledTools("get_weather")
			.didNotCallTool("get_time")
			.usedTokens(result.usage().totalTokens())
			.usedAtMostTokens(1000);
		assertThat(result).calledTool("get_weather")
			.withArgument("city", "Paris")
			.withArgument("days", 3.0)
			.withResult("sunny, 24°C in Paris")
			.succeeded();
		// end::result[]
	}

	@Test
	void eventStreamAssertionsAssembleTextAndToolCalls() {
		// tag::events[]
		assertThat(this.agent.stream(AgentRequest.of("s1", "Weather in Paris?")))
			.hasText("Sunny in Paris")
			.hasEventTypesInOrder("tool_call", "tool_result", "text", "completed")
			.containsToolCall("get_weather")
			.withArgument("city", "Paris")
			.withResultContaining("24°C");
		// end::events[]
	}

	@Test
	void requestAssertionsReadWhatTheModelReceived() {
		this.agent.call("s1", "Weather in Paris?");

		// tag::request[]
		assertThat(this.model.lastRequest()).systemPromptContains("You report the weather.")
			.hasToolNamed("get_weather")
			.lastUserMessageIsEqualTo("Weather in Paris?")
			.hasToolResultContaining("sunny");
		// end::request[]
	}

	@Test
	void meterAssertionsNarrowByTagAndCount() {
		this.agent.call("s1", "Weather in Paris?");

		// tag::meters[]
		assertThat(this.meters).hasTimer("agent.tool.calls")
			.withTag("tool", "get_weather")
			.withTag("outcome", "success")
			.hasCount(1);
		// end::meters[]
	}

	@Test
	void failingAssertionsSayWhatTheTurnDidInstead() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).calledTool("get_time"))
			.withMessage("Expected the turn to call tool 'get_time' but it called [get_weather]");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result).calledTool("get_weather").withArgument("city", "London"))
			.withMessageContaining("[tool call 'get_weather'] Expected argument 'city' of tool 'get_weather' to be")
			.withMessageContaining("\"London\"")
			.withMessageContaining("\"Paris\"");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.meters).hasTimer("agent.tool.calls").withTag("tool", "get_time"))
			.withMessageContaining("Expected a meter 'agent.tool.calls' with tag tool=get_time but its meters were")
			.withMessageContaining("agent.tool.calls{agent=weather, outcome=success, tool=get_weather} count=1");
	}

}
