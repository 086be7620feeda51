package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.schema.ToolFixtures;
import dev.agcore.tool.typed.TypedTool;
import dev.agcore.tool.typed.TypedTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.validation.constraints.Max;
import org.junit.jupiter.api.Test;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool results through the agent loop: returned directly, truncated, timed out per tool;
 * injected values; argument errors the model recovers from.
 */
class AgentToolResultTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final List<ToolCallback> tools = MethodTools.from(new OrderTools());

	@Test
	void returnDirectResultIsTheAnswerWithoutAnotherModelCall() {
		// one scripted response only: a second model call would fail the turn
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_status",
				"{\"id\":7}")));
		Agent agent = agent(model);

		AgentResult result = agent.call("s1", "Where is order 7?");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output()).isEqualTo("Order 7: shipped");
		assertThat(model.requests()).hasSize(1);
		assertThat(this.store.load("s1").block().messages()).extracting(Message::role)
			.extracting(Enum::name)
			.containsExactly("USER", "ASSISTANT", "TOOL");
	}

	@Test
	void returnDirectResultIsStreamedAsTheAnswer() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_status",
				"{\"id\":7}")));
		Agent agent = agent(model);

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "Where is order 7?"))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("usage", "tool_call", "tool_result", "text", "completed");
		assertThat(events.get(3)).isEqualTo(new AgentEvent.TextDelta("Order 7: shipped"));
		assertThat(((AgentEvent.Completed) events.get(4)).result().output()).isEqualTo("Order 7: shipped");
		assertThat(model.requests()).hasSize(1);
	}

	@Test
	void severalReturnDirectResultsAreJoinedInCallOrder() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_status",
				"{\"id\":7}"), new ToolCall("c2", "order_status", "{\"id\":8}")));

		AgentResult result = agent(model).call("s1", "Orders 7 and 8?");

		assertThat(result.output()).isEqualTo("Order 7: shipped\n\nOrder 8: shipped");
	}

	@Test
	void modelIsCalledAgainUnlessEveryCallReturnsDirectlyAndSucceeds() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "order_status", "{\"id\":7}"), new ToolCall("c2", "order_note", "{}")),
				toolCalls(new ToolCall("c3", "order_status", "{\"id\":\"seven\"}")), text("done"));

		AgentResult result = agent(model).call("s1", "status and note");

		assertThat(result.output()).isEqualTo("done");
		assertThat(model.requests()).hasSize(3);
		assertThat(toolResults(model.requests().get(2))).last()
			.extracting(ToolResultMessage::text)
			.isEqualTo("Error: invalid arguments for tool 'order_status': Parameter 'id' must be integer, got \"seven\"");
	}

	@Test
	void largeResultIsTruncatedWithAMarker() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_export",
				"{\"size\":5000}")), text("ok"));
		Agent agent = Agent.builder().name("orders").model(model).conversationStore(this.store).tools(this.tools)
			.maxToolResultLength(1000)
			.build();

		AgentResult result = agent.call("s1", "export");

		String sent = toolResults(model.requests().get(1)).get(0).text();
		assertThat(sent).startsWith("x".repeat(1000))
			.endsWith("\n[truncated: the result was 5000 characters long; only the first 1000 are shown]");
		assertThat(result.toolExecutions().get(0).result()).isEqualTo(sent);
	}

	@Test
	void defaultTruncationKeeps64KiCharacters() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_export",
				"{\"size\":70000}"), new ToolCall("c2", "order_export", "{\"size\":65536}")), text("ok"));

		agent(model).call("s1", "export");

		List<ToolResultMessage> sent = toolResults(model.requests().get(1));
		assertThat(sent.get(0).text()).isEqualTo(
				"x".repeat(65536) + "\n[truncated: the result was 70000 characters long; only the first 65536 are shown]");
		assertThat(sent.get(1).text()).isEqualTo("x".repeat(65536));
	}

	@Test
	void toolTimeoutOverridesTheAgentTimeout() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "order_sync", "{}")),
				toolCalls(new ToolCall("c2", "order_sync", "{}"), new ToolCall("c3", "order_note", "{}")), text("ok"));
		Agent agent = Agent.builder().name("orders").model(model).conversationStore(this.store).tools(this.tools)
			.metrics(new MicrometerAgentMetrics(meters))
			.build();

		long start = System.nanoTime();
		AgentResult result = agent.call("s1", "sync");

		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: tool 'order_sync' did not finish within 200 ms and was cancelled",
					"Error: tool 'order_sync' did not finish within 200 ms and was cancelled", "noted");
		assertThat(meters.get("agent.tool.calls").tags("tool", "order_sync", "outcome", "timeout").timer().count())
			.isEqualTo(2);
	}

	@Test
	void injectedValuesReachTheToolAndMemoryOutlivesTheTurn() {
		InMemoryKeyValueStore memory = new InMemoryKeyValueStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			return (last instanceof ToolResultMessage result) ? text(result.text())
					: toolCalls(new ToolCall("call-" + request.messages().size(), "injected", "{\"query\":\"q\"}"));
		});
		Agent agent = Agent.builder().name("notes").model(model).conversationStore(this.store)
			.tools(MethodTools.from(new ToolFixtures()))
			.tool(TypedTools.from(new Counter()))
			.store(memory)
			.build();

		AgentResult result = agent.call(new AgentRequest("s1", "search", Map.of("userId", "u-7")));

		assertThat(result.output()).isEqualTo("q|call-1|s1|call-1|s1|notes|u-7|{userId=u-7}");
		assertThat(model.requests().get(0).tools()).filteredOn((spec) -> spec.name().equals("injected"))
			.singleElement()
			.satisfies((spec) -> assertThat(spec.inputSchema().get("properties").propertyNames())
				.containsExactly("query"));
	}

	@Test
	void sessionMemoryIsPerSessionAndLongTermMemoryIsShared() {
		InMemoryKeyValueStore memory = new InMemoryKeyValueStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			return (last instanceof ToolResultMessage result) ? text(result.text())
					: toolCalls(new ToolCall("c", "count", "{}"));
		});
		Agent agent = Agent.builder().name("counter").model(model).conversationStore(this.store)
			.tool(TypedTools.from(new Counter()))
			.store(memory)
			.build();

		agent.call("s1", "count");
		agent.call("s1", "count");
		AgentResult other = agent.call("s2", "count");

		assertThat(other.output()).isEqualTo("session 1, all sessions 3");
		assertThat(SessionMemory.of(memory, "s1").get("count", Integer.class)).contains(2);
		assertThat(LongTermStore.of(memory).get("stats", "count", Integer.class)).contains(3);
	}

	@Test
	void modelRecoversFromAConstraintViolation() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "order_lines", "{\"count\":50}")),
				toolCalls(new ToolCall("c2", "order_lines", "{\"count\":5}")), text("done"));
		Agent agent = Agent.builder().name("orders").model(model).conversationStore(this.store).tools(this.tools).build();

		AgentResult result = agent.call("s1", "lines");

		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: invalid arguments for tool 'order_lines': Parameter 'count' must be less than or "
					+ "equal to 10", "5 lines");
		assertThat(result.output()).isEqualTo("done");
	}

	private Agent agent(ScriptedChatModel model) {
		return Agent.builder().name("orders").model(model).conversationStore(this.store).tools(this.tools).build();
	}

	static class OrderTools {

		@Tool(name = "order_status", returnDirect = true, permission = "read-only", secrets = {})
		String status(int id) {
			return "Order " + id + ": shipped";
		}

		@Tool(name = "order_note", secrets = {})
		String note() {
			return "noted";
		}

		@Tool(name = "order_export", permission = "read-only", secrets = {})
		String export(int size) {
			return "x".repeat(size);
		}

		@Tool(name = "order_sync", timeout = "200ms", secrets = {})
		String sync() throws InterruptedException {
			Thread.sleep(10_000);
			return "synced";
		}

		@Tool(name = "order_lines", permission = "read-only", secrets = {})
		String lines(@Max(10) int count) {
			return count + " lines";
		}

	}

	static class Counter implements TypedTool<Counter.Input> {

		record Input() {
		}

		@Override
		public String name() {
			return "count";
		}

		@Override
		public String description() {
			return "Count calls";
		}

		@Override
		public Set<String> secretParameters() {
			return Set.of();
		}

		@Override
		public Object call(Input input, ToolContext context) {
			int session = context.memory().get("count", Integer.class).orElse(0) + 1;
			context.memory().put("count", session);
			int all = context.store().get("stats", "count", Integer.class).orElse(0) + 1;
			context.store().put("stats", "count", all);
			return "session " + session + ", all sessions " + all;
		}

	}

}
