package dev.agcore.memory.window;

import java.util.List;
import java.util.Random;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class ContextWindowTests {

	private static final ToolCall C1 = new ToolCall("c1", "lookup", "{}");

	private static final ToolCall C2 = new ToolCall("c2", "lookup", "{}");

	/** u1 a1 u2 [calls c1 c2] r1 r2 a2 u3 — the turn starts at u3 (index 7). */
	private static final List<Message> CONVERSATION = List.of(new UserMessage("u1"), AssistantMessage.of("a1"),
			new UserMessage("u2"), AssistantMessage.of(List.of(C1, C2)), ToolResultMessage.success(C1, "r1"),
			ToolResultMessage.success(C2, "r2"), AssistantMessage.of("a2"), new UserMessage("u3"));

	@Test
	void fullSendsEverything() {
		assertThat(ContextWindow.full().select(CONVERSATION, 7)).isEqualTo(CONVERSATION);
	}

	@Test
	void lastMessagesKeepsTheTail() {
		assertThat(ContextWindow.lastMessages(2).select(CONVERSATION, 7)).extracting(Message::text)
			.containsExactly("a2", "u3");
		assertThat(ContextWindow.lastMessages(5).select(CONVERSATION, 7))
			.containsExactlyElementsOf(CONVERSATION.subList(3, 8));
		assertThat(ContextWindow.lastMessages(100).select(CONVERSATION, 7)).isEqualTo(CONVERSATION);
	}

	@Test
	void aCutOnAToolResultMovesForwardPastTheResultsOfTheCutCall() {
		// the last 4 would start at r1, whose call is cut; the last 3 at r2
		assertThat(ContextWindow.lastMessages(4).select(CONVERSATION, 7)).extracting(Message::text)
			.containsExactly("a2", "u3");
		assertThat(ContextWindow.lastMessages(3).select(CONVERSATION, 7)).extracting(Message::text)
			.containsExactly("a2", "u3");
	}

	@Test
	void theCurrentTurnIsAlwaysKeptWhole() {
		// the turn started at u2 and holds a tool round: one message of window keeps all of it
		List<Message> selected = ContextWindow.lastMessages(1).select(CONVERSATION, 2);
		assertThat(selected).containsExactlyElementsOf(CONVERSATION.subList(2, 8));
		List<Message> byTokens = ContextWindow.lastTokens(1, TokenCounter.ESTIMATE).select(CONVERSATION, 2);
		assertThat(byTokens).containsExactlyElementsOf(CONVERSATION.subList(2, 8));
	}

	@Test
	void lastTokensKeepsWhatFitsFromTheEnd() {
		TokenCounter oneEach = (message) -> 10;
		assertThat(ContextWindow.lastTokens(25, oneEach).select(CONVERSATION, 7)).extracting(Message::text)
			.containsExactly("a2", "u3");
		assertThat(ContextWindow.lastTokens(45, oneEach).select(CONVERSATION, 7)).as("r1 is cut, so r2 goes too")
			.extracting(Message::text)
			.containsExactly("a2", "u3");
		assertThat(ContextWindow.lastTokens(50, oneEach).select(CONVERSATION, 7))
			.containsExactlyElementsOf(CONVERSATION.subList(3, 8));
		assertThat(ContextWindow.lastTokens(1_000, oneEach).select(CONVERSATION, 7)).isEqualTo(CONVERSATION);
	}

	@Test
	void lastTokensStopsAtTheFirstMessageThatDoesNotFit() {
		TokenCounter byLength = (message) -> message.text().length();
		List<Message> conversation = List.of(new UserMessage("tiny"), AssistantMessage.of("x".repeat(100)),
				new UserMessage("hi"), AssistantMessage.of("ok"), new UserMessage("now"));
		assertThat(ContextWindow.lastTokens(50, byLength).select(conversation, 4)).extracting(Message::text)
			.as("the small first message is not sent past the large one that did not fit")
			.containsExactly("hi", "ok", "now");
	}

	@Test
	void neverSendsAnOrphanedToolResultNorACallWithoutItsResults() {
		Random random = new Random(42);
		TokenCounter counter = TokenCounter.ESTIMATE;
		for (int run = 0; run < 500; run++) {
			List<Message> conversation = Conversations.random(random, random.nextInt(8));
			int turnStart = conversation.size() - 1;
			Conversations.assertPaired(conversation);
			int maxMessages = 1 + random.nextInt(conversation.size() + 2);
			long maxTokens = 1 + random.nextInt((int) counter.count(conversation) + 20);
			for (ContextWindow window : List.of(ContextWindow.lastMessages(maxMessages),
					ContextWindow.lastTokens(maxTokens, counter))) {
				List<Message> selected = window.select(conversation, turnStart);
				Conversations.assertPaired(selected);
				assertThat(selected).as("%s keeps a tail with the new message", window)
					.isEqualTo(conversation.subList(conversation.size() - selected.size(), conversation.size()))
					.last()
					.isEqualTo(conversation.get(turnStart));
			}
			assertThat(ContextWindow.lastMessages(maxMessages).select(conversation, turnStart))
				.hasSizeLessThanOrEqualTo(maxMessages);
			assertThat(counter.count(ContextWindow.lastTokens(maxTokens, counter).select(conversation, turnStart)))
				.isLessThanOrEqualTo(Math.max(maxTokens, counter.count(conversation.get(turnStart))));
		}
	}

	@Test
	void rejectsWindowsThatCouldNotHoldAMessage() {
		assertThatIllegalArgumentException().isThrownBy(() -> ContextWindow.lastMessages(0))
			.withMessage("'maxMessages' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ContextWindow.lastTokens(0, TokenCounter.ESTIMATE))
			.withMessage("'maxTokens' must be at least 1, was 0");
		assertThatNullPointerException().isThrownBy(() -> ContextWindow.lastTokens(10, null));
	}

}
