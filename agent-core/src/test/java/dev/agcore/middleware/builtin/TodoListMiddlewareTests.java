package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.MemoryItem;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

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
	void listIsAddedByBeforeModelSoLaterHooksSeeTheRequestTheModelGets() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		List<String> seen = new CopyOnWriteArrayList<>();
		AgentMiddleware later = new AgentMiddleware() {

			@Override
			public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
				seen.add(systemPrompt(request.messages()));
				return request;
			}

		};
		Agent agent = Agent.builder().name("planner").model(model).systemPrompt("Plan trips.")
			.middleware(new TodoListMiddleware()).middleware(later).build();

		agent.call("s1", "go");

		assertThat(seen).singleElement().asString().startsWith("Plan trips.\n\nTo-do list: empty.");
		assertThat(systemPrompt(model.requests().get(0).messages())).isEqualTo(seen.get(0));
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

	@Test
	void worksWhenTheTurnRunsOnAnEventLoopWithAStoreThatAnswersLater() {
		InMemoryKeyValueStore memory = new InMemoryKeyValueStore();
		// answers on another thread, as a networked store would: reading it must never block an event loop
		KeyValueStore asyncStore = new KeyValueStore() {
			@Override
			public Mono<MemoryItem> find(String namespace, String key) {
				return memory.find(namespace, key).delayElement(Duration.ofMillis(5));
			}

			@Override
			public Mono<Void> put(String namespace, String key, JsonNode value, JsonNode metadata) {
				return Mono.delay(Duration.ofMillis(5)).then(memory.put(namespace, key, value, metadata));
			}

			@Override
			public Mono<Boolean> putIfAbsent(String namespace, String key, JsonNode value, JsonNode metadata) {
				return memory.putIfAbsent(namespace, key, value, metadata);
			}

			@Override
			public Mono<Boolean> delete(String namespace, String key) {
				return memory.delete(namespace, key);
			}

			@Override
			public Mono<List<MemoryItem>> list(String namespace, ItemQuery query) {
				return memory.list(namespace, query);
			}

			@Override
			public Mono<Long> clear(String namespace) {
				return memory.clear(namespace);
			}
		};
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "write_todos",
				"{\"todos\":[{\"content\":\"Pack\",\"status\":\"pending\"}]}")), text("planned"));
		Agent agent = Agent.builder().name("planner").model(model).store(asyncStore)
			.middleware(new TodoListMiddleware()).build();

		AgentResult result = agent.invoke(AgentRequest.of("s1", "plan")).subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(5));

		assertThat(result.output()).isEqualTo("planned");
		assertThat(systemPrompt(model.requests().get(1).messages())).endsWith("- [pending] Pack");
	}

	private static String systemPrompt(List<Message> messages) {
		return ((SystemMessage) messages.get(0)).text();
	}

}
