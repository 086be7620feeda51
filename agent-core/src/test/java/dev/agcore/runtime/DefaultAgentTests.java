package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelServerException;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class DefaultAgentTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@Test
	void callRunsRequestedToolAndStoresTheWholeTurn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("It is sunny in Paris."));
		Agent agent = agent(model, TestTools.tool("get_weather", (args, ctx) -> "sunny, 21C in " + args));

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output()).isEqualTo("It is sunny in Paris.");
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.name()).isEqualTo("get_weather");
			assertThat(execution.result()).isEqualTo("sunny, 21C in {\"city\":\"Paris\"}");
			assertThat(execution.error()).isFalse();
		});
		assertThat(result.usage().inputTokens()).isEqualTo(20);
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).extracting(Message::role)
			.extracting(Enum::name)
			.containsExactly("USER", "ASSISTANT", "TOOL", "ASSISTANT");
		assertThat(model.requests().get(1).messages()).last()
			.isEqualTo(new ToolResultMessage("c1", "get_weather", "sunny, 21C in {\"city\":\"Paris\"}", false));
		assertThat(model.requests().get(0).tools()).extracting("name").containsExactly("get_weather");
	}

	@Test
	void systemPromptAndHistoryAreSentOnTheNextTurn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("first"), text("second"));
		Agent agent = Agent.builder().name("a").model(model).systemPrompt("Be brief.").conversationStore(this.store)
			.build();

		agent.call("s1", "one");
		agent.call("s1", "two");

		assertThat(model.requests().get(1).messages()).extracting(Message::text)
			.containsExactly("Be brief.", "one", "first", "two");
		assertThat(this.store.load("s1").block().messages()).hasSize(4);
	}

	@Test
	void severalToolCallsInOneTurnRunConcurrently() {
		CyclicBarrier bothRunning = new CyclicBarrier(2);
		TestTools.Body waitForTheOther = (args, ctx) -> {
			// Each call can only pass the barrier if the other one is running at the same time.
			bothRunning.await(5, TimeUnit.SECONDS);
			Thread.sleep(300);
			return "done " + ctx.toolCallId();
		};
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "slow_a", "{}"), new ToolCall("c2", "slow_b", "{}")), text("both done"));
		Agent agent = agent(model, TestTools.tool("slow_a", waitForTheOther), TestTools.tool("slow_b", waitForTheOther));

		AgentResult result = agent.call("s1", "go");

		assertThat(result.toolExecutions()).extracting(ToolExecution::result).containsExactly("done c1", "done c2");
		assertThat(result.toolExecutions()).noneMatch(ToolExecution::error);
		// results are appended in call order, one per call id
		assertThat(model.requests().get(1).messages().subList(2, 4)).extracting("toolCallId")
			.containsExactly("c1", "c2");
	}

	@Test
	void toolFailuresAreFedBackAndTheLoopContinues() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "boom", "{}"), new ToolCall("c2", "nope", "{}"),
						new ToolCall("c3", "strict", "{\"x\":1}")),
				text("recovered"));
		Agent agent = agent(model, TestTools.tool("boom", (args, ctx) -> {
			throw new IllegalStateException("disk full");
		}), TestTools.tool("strict", (args, ctx) -> {
			throw new ToolArgumentsException("Missing required parameter 'city'");
		}));

		AgentResult result = agent.call("s1", "try");

		assertThat(result.output()).isEqualTo("recovered");
		List<Message> sent = model.requests().get(1).messages();
		assertThat(sent.subList(2, 5)).allSatisfy((m) -> assertThat(((ToolResultMessage) m).error()).isTrue());
		assertThat(sent.subList(2, 5)).extracting(Message::text)
			.containsExactly("Error: tool 'boom' failed: IllegalStateException: disk full",
					"Error: unknown tool 'nope'. Available tools: boom, strict",
					"Error: invalid arguments for tool 'strict': Missing required parameter 'city'");
	}

	@Test
	void toolThatOverrunsItsTimeoutIsInterrupted() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(1);
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "sleepy", "{}")),
				text("ok"));
		Agent agent = Agent.builder().name("a").model(model).conversationStore(this.store)
			.toolTimeout(Duration.ofMillis(200))
			.tool(TestTools.tool("sleepy", (args, ctx) -> {
				try {
					Thread.sleep(10_000);
					return "woke up";
				}
				catch (InterruptedException ex) {
					interrupted.countDown();
					throw ex;
				}
			}))
			.build();

		AgentResult result = agent.call("s1", "sleep");

		assertThat(result.toolExecutions().get(0).result())
			.isEqualTo("Error: tool 'sleepy' did not finish within 200 ms and was cancelled");
		// the tool runs on its own worker, interrupted as the turn goes on
		assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(Thread.currentThread().isInterrupted()).as("no interrupt leaks to the caller").isFalse();
	}

	@Test
	void toolThatOverrunsItsTimeoutInParallelIsReportedAsTimeout() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "sleepy", "{}"), new ToolCall("c2", "quick", "{}")), text("ok"));
		Agent agent = Agent.builder().name("a").model(model).conversationStore(this.store)
			.toolTimeout(Duration.ofMillis(200))
			.tool(TestTools.tool("sleepy", (args, ctx) -> {
				Thread.sleep(10_000);
				return "woke up";
			}))
			.tool(TestTools.tool("quick", (args, ctx) -> "quick"))
			.build();

		AgentResult result = agent.call("s1", "sleep");

		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: tool 'sleepy' did not finish within 200 ms and was cancelled", "quick");
	}

	@Test
	void toolsNeverRunOnANonBlockingThread() {
		List<Boolean> onNonBlocking = new CopyOnWriteArrayList<>();
		TestTools.Body probe = (args, ctx) -> {
			onNonBlocking.add(Schedulers.isInNonBlockingThread());
			return "ok";
		};
		ScriptedChatModel script = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "probe", "{}")),
				text("done"));
		// a model that answers on a non-blocking thread, as a WebClient-based one does
		dev.agcore.model.ChatModel nonBlockingModel = new dev.agcore.model.ChatModel() {
			@Override
			public Mono<dev.agcore.model.ChatResponse> call(ChatRequest request) {
				return script.call(request).publishOn(Schedulers.parallel());
			}

			@Override
			public reactor.core.publisher.Flux<dev.agcore.model.ChatChunk> stream(ChatRequest request) {
				return script.stream(request).publishOn(Schedulers.parallel());
			}
		};
		Agent agent = agent(nonBlockingModel, TestTools.tool("probe", probe));

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "go")))
			.assertNext((result) -> assertThat(result.output()).isEqualTo("done"))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(onNonBlocking).containsExactly(false);
	}

	@Test
	void hittingMaxIterationsEndsTheTurnWithAClearResultAndKeepsCallsPaired() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> toolCalls(
				new ToolCall("c" + request.messages().size(), "again", "{}")));
		Agent agent = Agent.builder().name("looper").model(model).conversationStore(this.store).maxIterations(3)
			.tool(TestTools.tool("again", (args, ctx) -> "again")).build();

		AgentResult result = agent.call("s1", "loop forever");

		assertThat(result.status()).isEqualTo(AgentResult.Status.MAX_ITERATIONS_REACHED);
		assertThat(result.output()).isEqualTo(
				"Agent 'looper' stopped after 3 model calls without a final answer (max-iterations is 3)");
		assertThat(model.requests()).hasSize(3);
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).hasSize(7);
		assertThat(stored.get(stored.size() - 1)).isInstanceOf(ToolResultMessage.class);
	}

	@Test
	void modelFailureFailsTheTurnAndStoresNothing() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 500, "upstream broke");
		});
		Agent agent = agent(model);

		assertThatExceptionOfType(ModelServerException.class).isThrownBy(() -> agent.call("s1", "hi"))
			.withMessage("upstream broke");
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void streamEmitsEventsInOrderAndStoresTheSameHistoryAsCall() {
		ScriptedChatModel streamed = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("Sunny in Paris."));
		ScriptedChatModel called = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("Sunny in Paris."));
		InMemoryConversationStore streamStore = new InMemoryConversationStore();
		Agent streamingAgent = Agent.builder().name("test-agent").model(streamed).conversationStore(streamStore)
			.tool(TestTools.tool("get_weather", (args, ctx) -> "sunny")).build();
		Agent callingAgent = agent(called, TestTools.tool("get_weather", (args, ctx) -> "sunny"));

		List<AgentEvent> events = streamingAgent.stream(AgentRequest.of("s1", "Weather?")).collectList()
			.block(Duration.ofSeconds(5));
		callingAgent.call("s1", "Weather?");

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("usage", "tool_call", "tool_result", "text", "text", "text", "usage", "completed");
		assertThat(events.get(1)).isEqualTo(new AgentEvent.ToolCallStarted("c1", "get_weather", "{\"city\":\"Paris\"}"));
		assertThat(events.get(2)).isEqualTo(new AgentEvent.ToolCallCompleted("c1", "get_weather", "sunny", false));
		AgentResult result = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		assertThat(result.output()).isEqualTo("Sunny in Paris.");
		assertThat(streamStore.load("s1").block().messages()).isEqualTo(this.store.load("s1").block().messages());
	}

	@Test
	void streamResetsTextAWrapperReplacedSoTheTextShownIsTheAnswerStored() {
		AgentMiddleware finalAnswer = new AgentMiddleware() {

			@Override
			public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
				// like a limit's final answer: the streamed response is dropped for another one
				return next.call(request).map((streamed) -> text("Stopped here."));
			}

		};
		Agent agent = Agent.builder()
			.name("a")
			.model(ScriptedChatModel.replaying(text("A long streamed answer.")))
			.conversationStore(this.store)
			.middleware(finalAnswer)
			.build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("text", "text", "text", "text", "text_reset", "text", "usage", "completed");
		assertThat(events.get(5)).isEqualTo(new AgentEvent.TextDelta("Stopped here."));
		assertThat(this.store.load("s1").block().messages()).last().extracting(Message::text).isEqualTo("Stopped here.");
	}

	@Test
	void streamResetsTheTextOfAModelCallAWrapperRepeats() {
		AgentMiddleware twice = new AgentMiddleware() {

			@Override
			public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
				return next.call(request).then(next.call(request));
			}

		};
		Agent agent = Agent.builder()
			.name("a")
			.model(ScriptedChatModel.replaying(text("First try."), text("Second try.")))
			.middleware(twice)
			.build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("text", "text", "text_reset", "text", "text", "usage", "completed");
		assertThat(events.subList(3, 5)).extracting((event) -> ((AgentEvent.TextDelta) event).text())
			.containsExactly("Second ", "try.");
	}

	@Test
	void streamEndsWithAFailedEventAndStoresNothingWhenTheModelFails() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 503, "overloaded");
		});
		Agent agent = agent(model);

		StepVerifier.create(agent.stream(AgentRequest.of("s1", "hi")))
			.expectNext(new AgentEvent.Failed("ModelServerException", "overloaded"))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.store.load("s1").block().messages()).isEmpty();
	}

	@Test
	void concurrentSessionsNeverMix() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			Message last = request.messages().get(request.messages().size() - 1);
			if (last instanceof UserMessage user) {
				return toolCalls(new ToolCall("c", "echo", "{\"v\":\"" + user.text() + "\"}"));
			}
			return text("echo:" + last.text());
		});
		Agent agent = agent(model, TestTools.tool("echo", (args, ctx) -> ctx.sessionId() + "|" + args));

		List<Mono<AgentResult>> turns = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			String session = "s" + (i % 8);
			turns.add(agent.invoke(AgentRequest.of(session, "m" + i)).subscribeOn(Schedulers.parallel()));
		}
		Mono.when(turns).block(Duration.ofSeconds(10));

		for (int s = 0; s < 8; s++) {
			String session = "s" + s;
			List<Message> history = this.store.load(session).block().messages();
			assertThat(history).hasSize(5 * 4);
			for (int turn = 0; turn < 5; turn++) {
				List<Message> messages = history.subList(turn * 4, turn * 4 + 4);
				String said = messages.get(0).text();
				assertThat(Integer.parseInt(said.substring(1)) % 8).isEqualTo(s);
				assertThat(messages.get(2).text()).isEqualTo(session + "|{\"v\":\"" + said + "\"}");
				assertThat(messages.get(3))
					.isEqualTo(AssistantMessage.of("echo:" + messages.get(2).text()).withAgent("test-agent"));
			}
		}
	}

	@Test
	void callerStateReachesToolsButNotTheModel() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "whoami", "{}")),
				text("ok"));
		Agent agent = agent(model, TestTools.tool("whoami",
				(args, ctx) -> ctx.agentName() + "/" + ctx.sessionId() + "/" + ctx.toolCallId() + "/" + ctx.state()));

		AgentResult result = agent.call(new AgentRequest("s9", "who?", Map.of("userId", "u-42")));

		assertThat(result.toolExecutions().get(0).result()).isEqualTo("test-agent/s9/c1/{userId=u-42}");
		assertThat(model.requests().get(0).messages()).extracting(Message::text).doesNotContain("u-42");
	}

	private Agent agent(dev.agcore.model.ChatModel model, dev.agcore.tool.ToolCallback... tools) {
		return Agent.builder().name("test-agent").model(model).conversationStore(this.store)
			.tools(List.of(tools)).build();
	}

}
