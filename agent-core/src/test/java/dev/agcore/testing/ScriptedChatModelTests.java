package dev.agcore.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The scripted model: steps answer requests in order, streamed as a server would, with
 * errors and delays; the fallback answers after them.
 */
class ScriptedChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final ChatRequest HELLO = ChatRequest.of(List.of(new UserMessage("hello")));

	@Test
	void builderStepsAnswerRequestsInOrder() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenCallTool("get_weather", Map.of("city", "Paris"))
			.thenReply("Sunny in Paris")
			.build();

		ChatResponse first = model.call(HELLO).block(TIMEOUT);
		ChatResponse second = model.call(HELLO).block(TIMEOUT);

		assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
		assertThat(first.message().toolCalls()).singleElement().satisfies((call) -> {
			assertThat(call.id()).isEqualTo("call_1");
			assertThat(call.name()).isEqualTo("get_weather");
			assertThat(call.arguments()).isEqualTo("{\"city\":\"Paris\"}");
		});
		assertThat(second.message().text()).isEqualTo("Sunny in Paris");
		assertThat(model.requests()).hasSize(2);
		assertThat(model.script().remaining()).isZero();
	}

	@Test
	void exhaustedScriptFailsNamingTheRequest() {
		ScriptedChatModel model = ScriptedChatModel.builder().thenReply("only one").build();
		model.call(HELLO).block(TIMEOUT);

		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> model.call(HELLO).block(TIMEOUT))
			.withMessageContaining("no response left for request #2")
			.withMessageContaining("user \"hello\"");
	}

	@Test
	void liveScriptAnswersBeforeTheFallback() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("fallback"));
		model.script().thenReply("scripted first");

		assertThat(model.call(HELLO).block(TIMEOUT).message().text()).isEqualTo("scripted first");
		assertThat(model.call(HELLO).block(TIMEOUT).message().text()).isEqualTo("fallback");
	}

	@Test
	void reasoningIsStreamedAsReasoningChunks() {
		ScriptedChatModel model = ScriptedChatModel.builder().thenReason("Paris is in France.", "It is sunny.").build();

		List<ChatChunk> chunks = model.stream(HELLO).collectList().block(TIMEOUT);

		assertThat(chunks).filteredOn((chunk) -> chunk.reasoning() != null).hasSize(2);
		assertThat(chunks).extracting(ChatChunk::textDelta).contains("It ", "is ", "sunny.");
	}

	@Test
	void explicitChunksAreStreamedAsGivenAndFoldedForACall() {
		ChatChunk[] chunks = { ChatChunk.text("Hel"), ChatChunk.text("lo"),
				new ChatChunk("", List.of(), null, FinishReason.STOP, "m") };
		ScriptedChatModel model = ScriptedChatModel.builder().thenStream(chunks).thenStream(chunks).build();

		StepVerifier.create(model.stream(HELLO)).expectNext(chunks).expectComplete().verify(TIMEOUT);
		assertThat(model.call(HELLO).block(TIMEOUT).message().text()).isEqualTo("Hello");
	}

	@Test
	void failuresAreRaisedAsTheProviderWould() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenFail(new ModelServerException("openai", 503, "overloaded"))
			.thenTimeout()
			.thenFailMidStream(new ModelServerException("openai", 502, "connection reset"), ChatChunk.text("Half"))
			.build();

		StepVerifier.create(model.call(HELLO)).expectError(ModelServerException.class).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO)).expectError(ModelTimeoutException.class).verify(TIMEOUT);
		StepVerifier.create(model.stream(HELLO))
			.expectNext(ChatChunk.text("Half"))
			.expectErrorMessage("connection reset")
			.verify(TIMEOUT);
	}

	@Test
	void waitDelaysTheNextStepOnly() {
		ScriptedChatModel model = ScriptedChatModel.builder()
			.thenWait(Duration.ofMinutes(5))
			.thenReply("late")
			.thenReply("at once")
			.build();

		StepVerifier.withVirtualTime(() -> model.call(HELLO))
			.expectSubscription()
			.expectNoEvent(Duration.ofMinutes(4))
			.thenAwait(Duration.ofMinutes(1))
			.assertNext((response) -> assertThat(response.message().text()).isEqualTo("late"))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(model.call(HELLO))
			.assertNext((response) -> assertThat(response.message().text()).isEqualTo("at once"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void resetForgetsRequestsAndUnusedSteps() {
		ScriptedChatModel model = ScriptedChatModel.builder().thenReply("a").thenReply("b").build();
		model.call(HELLO).block(TIMEOUT);

		model.reset();

		assertThat(model.requests()).isEmpty();
		assertThat(model.script().remaining()).isZero();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(model::lastRequest)
			.withMessage("The scripted model received no request");
	}

	@Test
	void copiesShareTheScript() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.text("one"));
		ScriptedChatModel renamed = model.withModelName("other");

		assertThat(renamed.call(HELLO).block(TIMEOUT).message().text()).isEqualTo("one");
		assertThat(model.script().remaining()).isZero();
		assertThat(renamed.modelName()).isEqualTo("other");
	}

}
