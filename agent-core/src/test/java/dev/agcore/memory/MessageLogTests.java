package dev.agcore.memory;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MessageLog}.
 */
class MessageLogTests {

	@Test
	void everyListStaysAsItWasWhenItsSuccessorsGrow() {
		MessageLog first = MessageLog.EMPTY.append(List.of(new UserMessage("1")), 100);
		MessageLog second = first.append(List.of(AssistantMessage.of("2")), 100);
		// a second extension of the same list must not write over the first one's message
		MessageLog branch = first.append(List.of(AssistantMessage.of("other")), 100);
		List<MessageLog> grown = new ArrayList<>();
		MessageLog current = second;
		for (int i = 3; i <= 100; i++) {
			current = current.append(List.of(new UserMessage(String.valueOf(i))), 1000);
			grown.add(current);
		}

		assertThat(first).containsExactly(new UserMessage("1"));
		assertThat(second).containsExactly(new UserMessage("1"), AssistantMessage.of("2"));
		assertThat(branch).containsExactly(new UserMessage("1"), AssistantMessage.of("other"));
		for (int i = 0; i < grown.size(); i++) {
			assertThat(grown.get(i)).hasSize(i + 3).endsWith(new UserMessage(String.valueOf(i + 3)));
		}
		assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> second.get(2));
	}

	@Test
	void keepsTheNewestNeverStartingWithAToolResult() {
		ToolCall call = new ToolCall("c1", "lookup", "{}");
		List<Message> turn = List.of(new UserMessage("q"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "r"), AssistantMessage.of("a"));
		MessageLog log = MessageLog.EMPTY.append(turn, 3);
		assertThat(log).containsExactlyElementsOf(turn.subList(1, 4));
		MessageLog tight = MessageLog.EMPTY.append(turn, 2);
		assertThat(tight).containsExactly(AssistantMessage.of("a"));
		MessageLog more = tight.append(List.of(new UserMessage("q2")), 2);
		assertThat(more).containsExactly(AssistantMessage.of("a"), new UserMessage("q2"));
		assertThat(tight).containsExactly(AssistantMessage.of("a"));
	}

}
