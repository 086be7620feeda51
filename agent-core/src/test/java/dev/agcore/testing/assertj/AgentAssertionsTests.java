package dev.agcore.testing.assertj;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatChunk;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.TestTools;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static dev.agcore.testing.assertj.AgentAssertions.assertThatEvents;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The testing kit's assertions, tested on real turns of an agent with a scripted model:
 * each passes on what the turn did and fails with a message saying what it did instead.
 */
class AgentAssertionsTests {

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
		.tool(TestTools.tool("get_weather", (arguments, context) -> "sunny, 24°C"))
		.build();

	@Test
	void resultAssertionsPassOnWhatTheTurnDid() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		assertThat(result).isCompleted()
			.endedWith("Sunny in Paris")
			.calledTools("get_weather")
			.didNotCallTool("get_time")
			.usedTokens(result.usage().totalTokens())
			.usedAtMostTokens(1000);
		assertThat(result).calledTool("get_weather")
			.withArgument("city", "Paris")
			.withArgument("days", 3.0)
			.withResult("sunny, 24°C")
			.succeeded();
	}

	@Test
	void calledToolFailsNamingTheToolsCalled() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).calledTool("get_time"))
			.withMessage("Expected the turn to call tool 'get_time' but it called [get_weather]");
	}

	@Test
	void withArgumentFailsShowingBothValues() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result).calledTool("get_weather").withArgument("city", "London"))
			.withMessageContaining("[tool call 'get_weather']")
			.withMessageContaining("Expected argument 'city' of tool 'get_weather' to be")
			.withMessageContaining("\"London\"")
			.withMessageContaining("\"Paris\"");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result).calledTool("get_weather").withArgument("country", "France"))
			.withMessageContaining("to have argument 'country', but its arguments were")
			.withMessageContaining("{\"city\":\"Paris\",\"days\":3}");
	}

	@Test
	void endedWithAndTokenFailuresSayWhatHappened() {
		AgentResult result = this.agent.call("s1", "Weather in Paris?");

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).endedWith("Rainy"))
			.withMessageContaining("Expected the turn to end with")
			.withMessageContaining("\"Rainy\"")
			.withMessageContaining("but it ended with")
			.withMessageContaining("\"Sunny in Paris\"");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).usedAtMostTokens(1))
			.withMessageStartingWith("Expected the turn to use at most 1 tokens but it used "
					+ result.usage().totalTokens() + " (");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(result).isInterrupted())
			.withMessageContaining("Expected the turn to end INTERRUPTED but it ended COMPLETED");
	}

	@Test
	void pendingApprovalIsAssertedWithItsArguments() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("delete_file", Map.of("path", "/tmp/a"))
			.build();
		Agent agent = Agent.builder()
			.name("files")
			.model(model)
			.tool(TestTools.tool("delete_file", (arguments, context) -> "deleted"))
			.middleware(HumanInTheLoopMiddleware.forTools(Set.of("delete_file")))
			.build();

		AgentResult result = agent.call("s1", "delete /tmp/a");

		assertThat(result).isInterrupted().hasPendingApproval("delete_file").withArgument("path", "/tmp/a");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result).hasPendingApproval("delete_file").withResult("deleted"))
			.withMessageContaining("to have run, but it has not (it waits for approval)");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(result).hasPendingApproval("send_mail"))
			.withMessageContaining("Expected a call of tool 'send_mail' to wait for approval but only [delete_file] do");
	}

	@Test
	void eventStreamAssertionsAssembleTextAndToolCalls() {
		assertThat(this.agent.stream(AgentRequest.of("s1", "Weather in Paris?")))
			.hasText("Sunny in Paris")
			.hasEventTypesInOrder("tool_call", "tool_result", "text", "completed")
			.containsToolCall("get_weather")
			.withArgument("city", "Paris")
			.withResultContaining("24°C");
	}

	@Test
	void eventStreamFailuresListWhatTheStreamHad() {
		List<AgentEvent> events = this.agent.stream(AgentRequest.of("s1", "Weather in Paris?"))
			.collectList()
			.block(AgentAssertions.STREAM_TIMEOUT);

		assertThatEvents(events).completed().endedWith("Sunny in Paris");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThatEvents(events).hasEventTypesInOrder("text", "tool_call"))
			.withMessageContaining("but 'tool_call' was missing after [text] in");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThatEvents(events).hasText("Rainy"))
			.withMessageContaining("Expected the streamed text to be")
			.withMessageContaining("\"Sunny in Paris\"");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThatEvents(events).failedWith("boom"))
			.withMessageContaining("but it ended with Completed[");
	}

	@Test
	void textResetDiscardsTheReplacedAnswer() {
		List<AgentEvent> events = List.of(new AgentEvent.TextDelta("first "), new AgentEvent.UsageReported(
				ScriptedChatModel.text("x").usage()), new AgentEvent.TextDelta("broken"), new AgentEvent.TextReset(),
				new AgentEvent.TextDelta("fixed"));

		assertThatEvents(events).hasText("first fixed");
	}

	@Test
	void requestAssertionsReadWhatTheModelReceived() {
		this.agent.call("s1", "Weather in Paris?");

		assertThat(this.model.lastRequest()).systemPromptContains("You report the weather.")
			.hasToolNamed("get_weather")
			.lastUserMessageIsEqualTo("Weather in Paris?")
			.hasToolResultContaining("sunny");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.model.lastRequest()).hasToolNamed("get_time"))
			.withMessage("Expected the request to offer tool 'get_time' but it offered [get_weather]");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.model.requests().get(0)).systemPromptContains("pirate"))
			.withMessageContaining("Expected the system prompt to contain")
			.withMessageContaining("You report the weather.");
	}

	@Test
	void meterAssertionsNarrowByTagAndCount() {
		this.agent.call("s1", "Weather in Paris?");

		assertThat(this.meters).hasTimer("agent.tool.calls")
			.withTag("tool", "get_weather")
			.withTag("outcome", "success")
			.hasCount(1);
		assertThat(this.meters).doesNotHaveMeter("agent.plans");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.meters).hasTimer("agent.tool.calls").withTag("tool", "get_time"))
			.withMessageContaining("Expected a meter 'agent.tool.calls' with tag tool=get_time but its meters were")
			.withMessageContaining("tool=get_weather");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.meters).hasCounter("agent.tool.calls"))
			.withMessageContaining("Expected a counter named 'agent.tool.calls' but found agent.tool.calls{");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.meters).hasTimer("agent.tool.calls").hasCount(2))
			.withMessageContaining("Expected meter 'agent.tool.calls' to count 2 but it counted 1");
	}

	@Test
	void explicitChunksReachTheEventStream() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenStream(ChatChunk.text("Bon"), ChatChunk.text("jour"))
			.build();
		Agent agent = Agent.builder().name("greeter").model(model).build();

		assertThat(agent.stream(AgentRequest.of("s1", "hi"))).hasText("Bonjour").completed().endedWith("Bonjour");
	}

}
