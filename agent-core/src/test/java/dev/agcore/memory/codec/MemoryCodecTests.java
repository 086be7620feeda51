package dev.agcore.memory.codec;

import java.util.List;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MemoryCodec}.
 */
class MemoryCodecTests {

	private final MemoryCodec codec = MemoryCodec.get();

	@Test
	void everyMessageKindRoundTripsExactly() {
		ToolCall call = new ToolCall("call_1", "search", "{\"q\":\"naïve \\\"quote\\\" 你好\"}");
		List<Message> messages = List.of(new SystemMessage("rules"), new UserMessage("line1\nline2 ✓"),
				new AssistantMessage("calling", List.of(call)), AssistantMessage.of(""),
				ToolResultMessage.success(call, "{\"hits\":3}"), ToolResultMessage.failure(call, "Error: boom"));
		for (Message message : messages) {
			String json = this.codec.encode(message);
			assertThat(this.codec.decodeMessage(json)).isEqualTo(message);
		}
		assertThat(MemoryCodec.kind(messages.get(4))).isEqualTo("tool");
	}

	@Test
	void aPausedTurnRoundTripsExactly() {
		ToolCall call = new ToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}");
		PendingTurn turn = new PendingTurn("ops", List.of(new UserMessage("delete"), AssistantMessage.of(List.of(call))),
				List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{\"path\":\"/tmp/x\"}", "needs approval")),
				2, 1234567890123L, 42);
		assertThat(this.codec.decodePendingTurn(this.codec.encode(turn))).isEqualTo(turn);
	}

	@Test
	void aDocumentFromANewerFormatIsRefusedClearly() {
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> this.codec.decodeMessage("{\"v\":2,\"kind\":\"user\",\"text\":\"hi\"}"))
			.withMessageContaining("format version 2")
			.withMessageContaining("newer release");
	}

	@Test
	void malformedDocumentsAreRefusedClearly() {
		assertThatExceptionOfType(MemoryException.class).isThrownBy(() -> this.codec.decodeMessage("{not json"))
			.withMessageContaining("not valid JSON");
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> this.codec.decodeMessage("{\"v\":1,\"kind\":\"robot\",\"text\":\"hi\"}"))
			.withMessageContaining("unknown message kind 'robot'");
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> this.codec.decodeMessage("{\"v\":1,\"kind\":\"tool\",\"text\":\"hi\"}"))
			.withMessageContaining("malformed");
	}

}
