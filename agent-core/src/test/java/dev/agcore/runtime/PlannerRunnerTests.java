package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ToolChoice;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

class PlannerRunnerTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final ToolCallback weather = TestTools.tool("get_weather", (args, ctx) -> "sunny");

	private final ToolCallback search = TestTools.tool("search_web", (args, ctx) -> "found");

	@Test
	void plannerMakesExactlyTwoModelCallsAndTheAnswerCallChoosesNoTool() {
		ToolCall again = new ToolCall("c2", "get_weather", "{}");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "get_weather", "{}")),
				// a model that calls a tool where none may be chosen is not obeyed: no loop
				ChatResponse.of(new AssistantMessage("Sunny in Paris.", List.of(again))), text("never asked"));
		Agent agent = planner(model, Map.of(), this.weather);

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(model.requests()).hasSize(2);
		assertThat(model.requests().get(0).options().toolChoice()).isNull();
		assertThat(model.requests().get(1).options().toolChoice()).isEqualTo(ToolChoice.NONE);
		assertThat(model.requests().get(1).tools()).extracting(ToolSpec::name).containsExactly("get_weather");
		assertThat(result.output()).isEqualTo("Sunny in Paris.");
		assertThat(result.toolExecutions()).singleElement().extracting(ToolExecution::result).isEqualTo("sunny");
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(stored).extracting((message) -> message.role().name())
			.containsExactly("USER", "ASSISTANT", "TOOL", "ASSISTANT");
		assertThat(((AssistantMessage) stored.get(3)).hasToolCalls()).isFalse();
	}

	@Test
	void firstAnswerIsTheAnswerWhenNoToolIsAsked() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Hello!"), text("never asked"));
		Agent agent = planner(model, Map.of(), this.weather);

		assertThat(agent.call("s1", "hi").output()).isEqualTo("Hello!");
		assertThat(model.requests()).hasSize(1);
		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name).containsExactly("get_weather");
	}

	@Test
	void aliasCommandForcesItsToolAndIsStrippedFromTheTextSentButNotFromTheStoredMessage() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "search_web", "{}")),
				text("Found it."));
		Agent agent = planner(model, Map.of("web", "search_web"), this.weather, this.search);

		agent.call("s1", "@web who won? mail me@example.com");

		assertThat(model.requests().get(0).options().toolChoice()).isEqualTo(ToolChoice.tool("search_web"));
		assertThat(model.requests().get(0).messages()).last()
			.extracting(Message::text)
			.isEqualTo("who won? mail me@example.com");
		assertThat(model.requests().get(1).messages().get(0).text()).isEqualTo("who won? mail me@example.com");
		assertThat(this.store.load("s1").block().messages().get(0))
			.isEqualTo(new UserMessage("@web who won? mail me@example.com"));
	}

	@Test
	void severalCommandsRequireAToolAmongOnlyThoseNamed() {
		ToolCallback other = TestTools.tool("other", (args, ctx) -> "x");
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "search_web", "{}"),
				new ToolCall("c2", "get_weather", "{}")), text("Both."));
		Agent agent = planner(model, Map.of("web", "search_web"), this.weather, this.search, other);

		agent.call("s1", "Plan a trip @WEB @get_weather @unknown");

		assertThat(model.requests().get(0).options().toolChoice()).isEqualTo(ToolChoice.REQUIRED);
		assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
			.containsExactly("get_weather", "search_web");
		assertThat(model.requests().get(0).messages()).last()
			.extracting(Message::text)
			.isEqualTo("Plan a trip @unknown");
	}

	@Test
	void plannedToolsRunInParallel() {
		CyclicBarrier bothRunning = new CyclicBarrier(2);
		TestTools.Body waitForTheOther = (args, ctx) -> {
			// each call passes the barrier only while the other one runs
			bothRunning.await(5, TimeUnit.SECONDS);
			return "done " + ctx.toolCallId();
		};
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "slow_a", "{}"), new ToolCall("c2", "slow_b", "{}")), text("both done"));
		Agent agent = planner(model, Map.of(), TestTools.tool("slow_a", waitForTheOther),
				TestTools.tool("slow_b", waitForTheOther));

		AgentResult result = agent.call("s1", "go");

		assertThat(result.toolExecutions()).extracting(ToolExecution::result).containsExactly("done c1", "done c2");
		assertThat(result.toolExecutions()).noneMatch(ToolExecution::error);
	}

	@Test
	void invalidArgumentsAreAnsweredWithTheValidationErrors() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "strict", "{\"x\":1}")),
				text("I need a city."));
		Agent agent = planner(model, Map.of(), TestTools.tool("strict", (args, ctx) -> {
			throw new ToolArgumentsException("Missing required parameter 'city'");
		}));

		AgentResult result = agent.call("s1", "weather?");

		assertThat(result.output()).isEqualTo("I need a city.");
		assertThat(model.requests().get(1).messages()).last()
			.isEqualTo(new ToolResultMessage("c1", "strict",
					"Error: invalid arguments for tool 'strict': Missing required parameter 'city'", true));
	}

	@Test
	void streamShowsToolsThenTheAnswer() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "get_weather", "{}")),
				text("Sunny."));
		Agent agent = planner(model, Map.of(), this.weather);

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "@get_weather Paris"))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("usage", "tool_call", "tool_result", "text", "usage", "completed");
		assertThat(((AgentEvent.Completed) events.get(5)).result().output()).isEqualTo("Sunny.");
		assertThat(model.requests()).hasSize(2);
		StepVerifier.create(agent.history("s1")).assertNext((history) -> assertThat(history).hasSize(4))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aToolWaitingForApprovalPausesTheTurnAndTheResumedTurnMakesOnlyTheAnswerCall() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}")),
				text("Deleted."), text("never asked"));
		Agent agent = Agent.builder()
			.name("planner")
			.model(model)
			.runner(Runner.PLANNER)
			.tool(TestTools.tool("delete_file", (args, ctx) -> "deleted"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.conversationStore(this.store)
			.build();

		assertThat(agent.call("s1", "delete it").status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		assertThat(model.requests()).hasSize(1);
		AgentResult resumed = agent.resume(ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve())))
			.block(Duration.ofSeconds(5));

		assertThat(resumed.output()).isEqualTo("Deleted.");
		assertThat(model.requests()).hasSize(2);
		assertThat(model.requests().get(1).options().toolChoice()).isEqualTo(ToolChoice.NONE);
		assertThat(this.store.load("s1").block().messages()).extracting((message) -> message.role().name())
			.containsExactly("USER", "ASSISTANT", "TOOL", "ASSISTANT");
	}

	private Agent planner(ScriptedChatModel model, Map<String, String> commands, ToolCallback... tools) {
		return Agent.builder()
			.name("planner")
			.model(model)
			.runner(Runner.PLANNER)
			.runnerCommands(commands)
			.tools(List.of(tools))
			.conversationStore(this.store)
			.build();
	}

}
