package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelServerException;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class FallbackRunnerTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final List<String> fallbacks = new CopyOnWriteArrayList<>();

	private final AgentMetrics metrics = new AgentMetrics() {

		@Override
		public void runnerFallback(String agent, String from, String to, String reason) {
			FallbackRunnerTests.this.fallbacks.add(agent + ":" + from + "->" + to + ":" + reason);
		}

	};

	@Test
	void reactFallsBackToThePlannerWhenTheModelFailsAndStoresOnlyThePlannersTurn() {
		AtomicInteger calls = new AtomicInteger();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> switch (calls.incrementAndGet()) {
			case 1 -> toolCalls(new ToolCall("r1", "echo", "{}"));
			case 2 -> throw new ModelServerException("openai", 503, "overloaded");
			case 3 -> toolCalls(new ToolCall("p1", "echo", "{}"));
			default -> text("Planned answer.");
		});
		Agent agent = agent(model, 10);

		AgentResult result = agent.call("s1", "go");

		assertThat(result.output()).isEqualTo("Planned answer.");
		assertThat(model.requests()).hasSize(4);
		// the planner starts from the user's message, not from the failed attempt
		assertThat(model.requests().get(2).messages()).extracting(Message::text).containsExactly("go");
		assertThat(this.fallbacks).containsExactly("a:react->planner:error");
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).extracting((message) -> message.role().name())
			.containsExactly("USER", "ASSISTANT", "TOOL", "ASSISTANT");
		assertThat(((AssistantMessage) stored.get(1)).toolCalls()).extracting(ToolCall::id).containsExactly("p1");
		assertThat(result.toolExecutions()).extracting(ToolExecution::id).containsExactly("p1");
	}

	@Test
	void reactFallsBackToThePlannerAtMaxIterations() {
		AtomicInteger calls = new AtomicInteger();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			int call = calls.incrementAndGet();
			return (call <= 3) ? toolCalls(new ToolCall("r" + call, "echo", "{}"))
					: ChatResponse.of(AssistantMessage.of("Done after fallback."));
		});
		Agent agent = agent(model, 2);

		AgentResult result = agent.call("s1", "go");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output()).isEqualTo("Done after fallback.");
		assertThat(model.requests()).hasSize(4);
		assertThat(this.fallbacks).containsExactly("a:react->planner:max_iterations");
		assertThat(this.store.load("s1").block().messages()).hasSize(4);
		assertThat(result.toolExecutions()).extracting(ToolExecution::id).containsExactly("r3");
	}

	@Test
	void withoutAFallbackTheFailureStands() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 503, "overloaded");
		});
		Agent agent = Agent.builder().name("a").model(model).conversationStore(this.store).build();

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "go")))
			.expectError(ModelServerException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void streamedFallbackResetsTheTextOfTheFailedAttempt() {
		AtomicInteger calls = new AtomicInteger();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> switch (calls.incrementAndGet()) {
			case 1 -> toolCalls(new ToolCall("r1", "echo", "{}"));
			case 2 -> throw new ModelServerException("openai", 503, "overloaded");
			default -> text("Planned.");
		});

		List<AgentEvent> events = agent(model, 10).stream(AgentRequest.of("s1", "go"))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("usage", "tool_call", "tool_result", "runner_fallback", "text_reset", "text", "usage",
					"completed");
		assertThat(events.get(3)).isEqualTo(new AgentEvent.RunnerFallback("react", "planner", "error"));
		assertThat(((AgentEvent.Completed) events.get(7)).result().output()).isEqualTo("Planned.");
		assertThat(this.store.load("s1").block().messages()).hasSize(2);
	}

	@Test
	void onlyReactFallsBackAndOnlyToThePlanner() {
		AgentBuilder builder = Agent.builder().name("a").model(ScriptedChatModel.replaying());
		assertThatIllegalStateException().isThrownBy(() -> builder.runner(Runner.LLM).fallbackRunner(Runner.PLANNER).build())
			.withMessageContaining("Only the react runner has a fallback runner");
		assertThatIllegalStateException()
			.isThrownBy(() -> builder.runner(Runner.REACT).fallbackRunner(Runner.LLM).build())
			.withMessageContaining("and only planner");
	}

	private Agent agent(ScriptedChatModel model, int maxIterations) {
		return Agent.builder()
			.name("a")
			.model(model)
			.runner(Runner.REACT)
			.fallbackRunner(Runner.PLANNER)
			.maxIterations(maxIterations)
			.metrics(this.metrics)
			.tool(TestTools.tool("echo", (args, ctx) -> "echoed"))
			.conversationStore(this.store)
			.build();
	}

}
