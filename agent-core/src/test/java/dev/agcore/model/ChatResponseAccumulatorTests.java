package dev.agcore.model;

import java.util.List;

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

	private static ChatChunk delta(int index, String id, String name, String arguments) {
		return new ChatChunk("", List.of(new ChatChunk.ToolCallDelta(index, id, name, arguments)), null, null, null);
	}

}
