package dev.agcore.middleware.builtin;

import java.util.List;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

class ObservedMiddlewareTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "echo", "{}")),
			text("done"));

	@Test
	void countsEachInvocationOfTheHooksAMiddlewareOverrides() {
		Agent agent = agent(ObservedMiddleware.observe(List.of(new Auditing()), this.registry));

		agent.call("s", "go");

		assertThat(count("before_model", "audit")).isEqualTo(2);
		assertThat(count("wrap_tool_call", "audit")).isEqualTo(1);
		assertThat(this.registry.find("agent.hook.events").tag("hook", "after_model").counter())
			.as("hooks left to their no-op default are not counted")
			.isNull();
	}

	@Test
	void countsAndRunsReactiveHooks() {
		TodoListMiddleware todos = new TodoListMiddleware();
		Agent agent = agent(ObservedMiddleware.observe(List.of(todos), this.registry));

		agent.call("s", "go");

		assertThat(this.model.requests().get(0).messages().get(0).text()).startsWith("To-do list: empty.");
		assertThat(count("before_model", "todo-list")).isEqualTo(2);
	}

	@Test
	void namesBuiltInMiddlewareByItsClassAndKeepsItsBehaviour() {
		ModelCallLimitMiddleware limit = ModelCallLimitMiddleware.builder().perTurn(1).build();
		ObservedMiddleware observed = new ObservedMiddleware(limit, this.registry);
		Agent agent = agent(List.of(observed));

		String output = agent.call("s", "go").output();

		assertThat(output).contains("model call limit (1 per turn)");
		assertThat(observed.name()).isEqualTo("ModelCallLimitMiddleware");
		assertThat(observed.delegate()).isSameAs(limit);
		assertThat(count("wrap_model_call", "ModelCallLimitMiddleware")).isEqualTo(2);
	}

	@Test
	void withoutARegistryItOnlyDelegates() {
		Auditing auditing = new Auditing();
		Agent agent = agent(List.of(new ObservedMiddleware(auditing, null)));

		assertThat(agent.call("s", "go").output()).isEqualTo("done");
		assertThat(auditing.toolCalls).isEqualTo(1);
	}

	@Test
	void observeDoesNotWrapTwice() {
		List<AgentMiddleware> once = ObservedMiddleware.observe(List.of(new Auditing()), this.registry);

		assertThat(ObservedMiddleware.observe(once, this.registry).get(0)).isSameAs(once.get(0));
	}

	private Agent agent(List<AgentMiddleware> middleware) {
		return Agent.builder()
			.name("observed")
			.model(this.model)
			.tool(BuiltinTestTools.tool("echo", (args, ctx) -> "echo"))
			.middleware(middleware)
			.build();
	}

	private double count(String hook, String middleware) {
		Counter counter = this.registry.get("agent.hook.events")
			.tags("agent", "observed", "hook", hook, "middleware", middleware)
			.counter();
		return counter.count();
	}

	private static final class Auditing implements AgentMiddleware {

		private volatile int toolCalls;

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			return request;
		}

		@Override
		public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
			this.toolCalls++;
			return next.call(call);
		}

		@Override
		public String name() {
			return "audit";
		}

	}

}
