package dev.agcore.runtime;

import java.time.Duration;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.memory.window.Conversations;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

class ContextWindowAgentTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@Test
	void theStoreKeepsEverythingWhileTheModelSeesTheWindow() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("a1"), text("a2"), text("a3"));
		Agent agent = Agent.builder()
			.model(model)
			.systemPrompt("Be brief.")
			.conversationStore(this.store)
			.contextWindow(ContextWindow.lastMessages(3))
			.build();

		agent.call("s", "u1");
		agent.call("s", "u2");
		agent.call("s", "u3");

		assertThat(model.requests().get(2).messages()).as("system prompt, then the last three messages")
			.extracting(Message::text)
			.containsExactly("Be brief.", "u2", "a2", "u3");
		assertThat(model.requests().get(2).messages().get(0)).isInstanceOf(SystemMessage.class);
		assertThat(this.store.load("s").block().messages()).extracting(Message::text)
			.containsExactly("u1", "a1", "u2", "a2", "u3", "a3");
	}

	@Test
	void aStreamedTurnIsWindowedAsAnInvokedOne() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("a1"), text("a2"));
		Agent agent = Agent.builder()
			.model(model)
			.conversationStore(this.store)
			.contextWindow(ContextWindow.lastMessages(1))
			.build();

		agent.call("s", "u1");
		StepVerifier.create(agent.stream(AgentRequest.of("s", "u2")).then())
			.expectComplete()
			.verify(Duration.ofSeconds(5));

		assertThat(model.requests().get(1).messages()).extracting(Message::text).containsExactly("u2");
		assertThat(this.store.load("s").block().messages()).extracting(Message::text).containsExactly("u1", "a1", "u2", "a2");
	}

	@Test
	void theTurnsOwnToolRoundsAreSentWholeAndOlderOnesNeverHalf() {
		ToolCall first = new ToolCall("c1", "lookup", "{}");
		ToolCall second = new ToolCall("c2", "lookup", "{}");
		ToolCall third = new ToolCall("c3", "lookup", "{}");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(first, second), text("a1"),
				toolCalls(third), text("a2"));
		Agent agent = Agent.builder()
			.model(model)
			.conversationStore(this.store)
			.tool(TestTools.tool("lookup", (args, ctx) -> "found " + ctx.toolCallId()))
			.contextWindow(ContextWindow.lastMessages(2))
			.build();

		agent.call("s", "u1");
		agent.call("s", "u2");

		for (var request : model.requests()) {
			Conversations.assertPaired(request.messages());
		}
		assertThat(model.requests().get(1).messages()).as("the first turn is kept whole, over the window")
			.hasSize(4);
		assertThat(model.requests().get(3).messages()).as("the second turn: u2, the call c3 and its result")
			.extracting(Message::text)
			.containsExactly("u2", "", "found c3");
		assertThat(model.requests().get(2).messages()).extracting(Message::text).containsExactly("a1", "u2");
		assertThat(this.store.load("s").block().messages()).hasSize(9)
			.filteredOn(ToolResultMessage.class::isInstance)
			.hasSize(3);
	}

}
