package dev.agcore.runtime;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two tool calls of one response sharing an id are renamed, so each result pairs with
 * its own call.
 */
class ToolCallIdsTests {

	@Test
	void duplicateIdsInOneResponseAreRenamedAndResultsPairWithTheirCalls() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "echo", "{\"v\":\"A\"}"),
				new ToolCall("c1", "echo", "{\"v\":\"B\"}"), new ToolCall("c1_2", "echo", "{\"v\":\"C\"}")), text("ok"));
		InMemoryConversationStore store = new InMemoryConversationStore();
		Agent agent = Agent.builder()
			.name("ids")
			.model(model)
			.conversationStore(store)
			.tools(List.of(TestTools.tool("echo", (arguments, context) -> "got " + arguments)))
			.build();

		agent.call("s", "go");

		List<ToolResultMessage> results = toolResults(model.requests().get(1));
		assertThat(results).extracting(ToolResultMessage::toolCallId).containsExactly("c1", "c1_3", "c1_2");
		assertThat(results).extracting(ToolResultMessage::text)
			.containsExactly("got {\"v\":\"A\"}", "got {\"v\":\"B\"}", "got {\"v\":\"C\"}");
		List<Message> stored = store.load("s").block().messages();
		AssistantMessage assistant = (AssistantMessage) stored.get(1);
		assertThat(assistant.toolCalls()).extracting(ToolCall::id).containsExactly("c1", "c1_3", "c1_2");
	}

	@Test
	void uniqueIdsAreKeptAsTheModelSentThem() {
		AssistantMessage message = new AssistantMessage("", List.of(new ToolCall("a", "t", "{}"), new ToolCall("b", "t", "{}")));
		assertThat(ToolCallIds.unique(message)).isSameAs(message);
	}

}
