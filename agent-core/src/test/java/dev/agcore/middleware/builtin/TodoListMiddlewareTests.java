package dev.agcore.middleware.builtin;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

class TodoListMiddlewareTests {

	@Test
	void agentGetsTheWriteTodosToolAndSeesItsListOnEveryCallAndTurn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "write_todos",
						"{\"todos\":[{\"content\":\"Book flight\",\"status\":\"completed\"},"
								+ "{\"content\":\"Book hotel\",\"status\":\"in_progress\"}]}")),
				text("Flight booked, hotel next."), text("Still on the hotel."));
		Agent agent = Agent.builder().name("planner").model(model).systemPrompt("Plan trips.")
			.middleware(new TodoListMiddleware()).build();

		AgentResult first = agent.call("s1", "Plan my trip");
		agent.call("s1", "Status?");

		assertThat(first.toolExecutions()).singleElement()
			.satisfies((execution) -> assertThat(execution.result()).isEqualTo("To-do list saved: 2 items, 1 completed"));
		assertThat(model.requests().get(0).tools()).extracting("name").containsExactly("write_todos");
		assertThat(systemPrompt(model.requests().get(0).messages())).isEqualTo("Plan trips.\n\n"
				+ "To-do list: empty. For a task with several steps, first write the steps with write_todos, "
				+ "then keep their status up to date.");
		String expected = "Plan trips.\n\nTo-do list (update it with write_todos as you work):\n"
				+ "- [completed] Book flight\n- [in_progress] Book hotel";
		assertThat(systemPrompt(model.requests().get(1).messages())).isEqualTo(expected);
		assertThat(systemPrompt(model.requests().get(2).messages())).as("the list outlives the turn").isEqualTo(expected);
	}

	@Test
	void invalidStatusIsAnsweredToTheModelAndTheListIsUnchanged() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "write_todos", "{\"todos\":[{\"content\":\"x\",\"status\":\"maybe\"}]}")),
				text("ok"));
		Agent agent = Agent.builder().name("planner").model(model).middleware(new TodoListMiddleware()).build();

		AgentResult result = agent.call("s1", "go");

		assertThat(result.toolExecutions().get(0).error()).isTrue();
		assertThat(result.toolExecutions().get(0).result()).contains("status").contains("completed");
		assertThat(systemPrompt(model.requests().get(1).messages())).startsWith("To-do list: empty.");
	}

	private static String systemPrompt(List<Message> messages) {
		return ((SystemMessage) messages.get(0)).text();
	}

}
