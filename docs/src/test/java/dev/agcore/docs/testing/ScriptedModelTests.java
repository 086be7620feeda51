package dev.agcore.docs.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripted model of docs/testing.md: its builder's steps answer an agent's requests
 * in order, and its failures reach the caller as a provider's would.
 */
class ScriptedModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final ChatRequest HELLO = ChatRequest.of(List.of(new UserMessage("hello")));

	@Test
	void builderStepsAnswerTheAgentsRequestsInOrder() {
		// tag::builder[]
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Paris"))
			.thenReply("Sunny in Paris")
			.build();
		// end::builder[]
		Agent agent = Agent.builder().name("weather").model(model).tools(MethodTools.from(new WeatherTools())).build();

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result.output()).isEqualTo("Sunny in Paris");
		assertThat(model.requests()).hasSize(2);
		assertThat(model.lastRequest().messages()).last()
			.satisfies((message) -> assertThat(message.text()).isEqualTo("sunny, 24°C in Paris"));
	}

	@Test
	void failuresAreRaisedAsTheProviderWould() {
		// tag::failures[]
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenFail(new ModelServerException("openai", 503, "overloaded"))
			.thenTimeout()
			.thenFailMidStream(new ModelServerException("openai", 502, "connection reset"), ChatChunk.text("Half"))
			.build();
		// end::failures[]

		StepVerifier.create(model.call(HELLO)).expectError(ModelServerException.class).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO))
			.expectNext(ChatChunk.text("Half"))
			.expectErrorMessage("connection reset")
			.verify(TIMEOUT);
	}

	@Test
	void exhaustedScriptNamesTheRequestAndHowToAddAStep() {
		ScriptedChatModel model = ScriptedChatModel.builder().thenReply("hi").build();
		model.call(HELLO).block(TIMEOUT);

		StepVerifier.create(model.call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex.getMessage())
				.contains("Scripted model has no response left for request #2 (last message: user \"hello\")")
				.contains("add one with script().thenReply(...) or the builder"))
			.verify(TIMEOUT);
	}

}
