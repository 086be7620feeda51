package dev.agcore.model;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ChatResponseAccumulatorTests {

	@Test
	void fragmentsAreJoinedByIndexEvenWhenOnlyTheFirstCarriesTheId() {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("openai");
		accumulator.add(delta(0, "call_a", "get_weather", "{\"ci"));
		accumulator.add(delta(1, "call_b", "get_time", "{"));
		accumulator.add(delta(0, null, null, "ty\":\"Paris\"}"));
		accumulator.add(delta(1, null, null, "}"));

		assertThat(accumulator.toResponse().message().toolCalls()).containsExactly(
				new ToolCall("call_a", "get_weather", "{\"city\":\"Paris\"}"), new ToolCall("call_b", "get_time", "{}"));
	}

	@Test
	void aNewIdAtTheSameIndexStartsANewCall() {
		// servers that omit the index send one whole call per chunk, all read as index 0
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("openai");
		accumulator.add(delta(0, "a", "f", "{\"x\":1}"));
		accumulator.add(delta(0, "b", "g", "{\"y\":2}"));

		assertThat(accumulator.toResponse().message().toolCalls())
			.containsExactly(new ToolCall("a", "f", "{\"x\":1}"), new ToolCall("b", "g", "{\"y\":2}"));
		assertThat(accumulator.toResponse().finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
	}

	@Test
	void aCallWithoutANameFailsNamingTheProvider() {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("vllm");
		accumulator.add(delta(0, "a", null, "{}"));

		assertThatExceptionOfType(ModelResponseException.class).isThrownBy(accumulator::toResponse)
			.withMessage("Streamed tool call #1 never received a tool name")
			.satisfies((ex) -> assertThat(ex.provider()).isEqualTo("vllm"));
	}

	@Test
	void aTextOnlyStreamFoldsToItsTextAlone() {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("openai");
		accumulator.add(ChatChunk.text("It is "));
		accumulator.add(ChatChunk.text("sunny."));
		accumulator.add(new ChatChunk("", List.of(), Usage.of(12, 3), FinishReason.STOP, "gpt-test"));

		ChatResponse response = accumulator.toResponse();
		assertThat(response.message()).isEqualTo(AssistantMessage.of("It is sunny."));
		assertThat(response.usage()).isEqualTo(Usage.of(12, 3));
		assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
		assertThat(response.model()).isEqualTo("gpt-test");
	}

	@Test
	void reasoningBlocksAndARefusalAreJoinedInOrder() {
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator("anthropic");
		accumulator.add(ChatChunk.reasoning(0, "First "));
		accumulator.add(ChatChunk.reasoning(1, "Second"));
		accumulator.add(new ChatChunk("", List.of(), null, null, null,
				new ChatChunk.ReasoningDelta(0, "thought", "sig-0", null), ""));
		accumulator.add(new ChatChunk("", List.of(), null, null, null, null, "I cannot "));
		accumulator.add(new ChatChunk("", List.of(), null, null, null, null, "help with that."));

		AssistantMessage message = accumulator.toResponse().message();
		assertThat(message.reasoning()).containsExactly(new Reasoning("First thought", "sig-0", null),
				new Reasoning("Second", null, null));
		assertThat(message.refusal()).isEqualTo("I cannot help with that.");
		assertThat(message.text()).isEmpty();
		assertThat(message.toolCalls()).isEmpty();
	}

	private static ChatChunk delta(int index, String id, String name, String arguments) {
		return new ChatChunk("", List.of(new ChatChunk.ToolCallDelta(index, id, name, arguments)), null, null, null);
	}

}
