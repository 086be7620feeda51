package dev.agcore.memory.codec;

import java.net.URI;
import java.util.List;

import dev.agcore.memory.MemoryException;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
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
	void newMessageFieldsRoundTripExactly() {
		List<Message> messages = List.of(SystemMessage.developer("be exact"),
				new UserMessage("see", List.of(Media.url(URI.create("https://example.com/cat.jpg"), "image/jpeg"),
						new Media("application/pdf", null, new byte[] { 37, 80, 68, 70, 0, -1 }, "a.pdf")), "bob"),
				new AssistantMessage("answer", List.of(new ToolCall("c1", "t", "{}")),
						List.of(new Reasoning("step 1", "sig", null), new Reasoning("", null, "cmVkYWN0ZWQ=")), null),
				new AssistantMessage("", List.of(), List.of(), "I refuse"));
		for (Message message : messages) {
			assertThat(this.codec.decodeMessage(this.codec.encode(message))).isEqualTo(message);
		}
		PendingTurn turn = new PendingTurn("a", messages, List.of(), 1, 2, 3);
		assertThat(this.codec.decodePendingTurn(this.codec.encode(turn))).isEqualTo(turn);
	}

	@Test
	void fieldsAreAdditiveSoVersionOneDocumentsStillRead() {
		// as the first release wrote them, without any of the optional fields
		assertThat(this.codec.decodeMessage("{\"v\":1,\"kind\":\"system\",\"text\":\"rules\"}"))
			.isEqualTo(new SystemMessage("rules"));
		assertThat(this.codec.decodeMessage("{\"v\":1,\"kind\":\"user\",\"text\":\"hi\"}"))
			.isEqualTo(new UserMessage("hi"));
		assertThat(this.codec.decodeMessage("{\"v\":1,\"kind\":\"assistant\",\"text\":\"yo\"}"))
			.isEqualTo(AssistantMessage.of("yo"));
		// and plain messages are written exactly as before: no new field, same version
		assertThat(this.codec.encode(new UserMessage("hi"))).isEqualTo("{\"v\":1,\"kind\":\"user\",\"text\":\"hi\"}");
		assertThat(this.codec.encode(new SystemMessage("rules")))
			.isEqualTo("{\"v\":1,\"kind\":\"system\",\"text\":\"rules\"}");
		String reasoning = this.codec.encode(new AssistantMessage("x", List.of(), List.of(Reasoning.of("r")), null));
		assertThat(reasoning).contains("\"v\":1").contains("\"reasoning\":[{\"text\":\"r\"}]");
	}

	@Test
	void theAgentOfAnAssistantMessageRoundTripsAndOlderMessagesReadWithoutOne() {
		AssistantMessage answered = AssistantMessage.of("planned").withAgent("plan");
		String json = this.codec.encode(answered);
		assertThat(json).isEqualTo("{\"v\":1,\"kind\":\"assistant\",\"text\":\"planned\",\"agent\":\"plan\"}");
		assertThat(this.codec.decodeMessage(json)).isEqualTo(answered);
		AssistantMessage calling = new AssistantMessage("", List.of(new ToolCall("c1", "t", "{}")),
				List.of(Reasoning.of("r")), null, "build");
		assertThat(this.codec.decodeMessage(this.codec.encode(calling))).isEqualTo(calling);
		PendingTurn turn = new PendingTurn("build", List.of(new UserMessage("go"), calling), List.of(), 1, 2, 3);
		assertThat(this.codec.decodePendingTurn(this.codec.encode(turn))).isEqualTo(turn);
		// as stored before the field was added
		AssistantMessage old = (AssistantMessage) this.codec
			.decodeMessage("{\"v\":1,\"kind\":\"assistant\",\"text\":\"yo\",\"refusal\":\"no\"}");
		assertThat(old.agent()).isNull();
		assertThat(old.refusal()).isEqualTo("no");
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> this.codec.decodeMessage("{\"v\":1,\"kind\":\"assistant\",\"text\":\"yo\",\"agent\":7}"))
			.withMessageContaining("'agent' is not a string");
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
