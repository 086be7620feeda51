package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.AgentPrincipal;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelPrice;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.Usage;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolPermission;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SubAgentTool}: an agent another agent calls as a tool.
 */
class SubAgentToolTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static ToolCall ask(String id, String agent, String task) {
		return new ToolCall(id, agent, "{\"task\":\"" + task + "\"}");
	}

	@Test
	void parentAsksTheSubAgentAndAnswersWithItsAnswerInSessionsOfTheirOwn() {
		ScriptedChatModel childModel = ScriptedChatModel.replaying(text("Paris"));
		Agent researcher = Agent.builder().name("researcher").model(childModel).systemPrompt("You research.").build();
		ScriptedChatModel parentModel = ScriptedChatModel.replaying(
				toolCalls(ask("c1", "researcher", "capital of France?")), text("It is Paris."));
		Agent lead = Agent.builder().name("lead").model(parentModel).tool(SubAgentTool.of(researcher)).build();

		AgentResult result = lead.call(new AgentRequest("s1", "Where is the Eiffel tower?", Map.of(), "u1"));

		assertThat(result.output()).isEqualTo("It is Paris.");
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.name()).isEqualTo("researcher");
			assertThat(execution.result()).isEqualTo("Paris");
			assertThat(execution.error()).isFalse();
		});
		// the child saw the task only: not the parent's conversation
		ChatRequest childRequest = childModel.requests().get(0);
		assertThat(childRequest.messages()).extracting(Message::text)
			.containsExactly("You research.", "capital of France?");
		// the child's session holds its turn, the parent's session its own
		List<Message> child = researcher.history("s1/researcher/c1").block(TIMEOUT);
		assertThat(child).extracting(Message::text).containsExactly("capital of France?", "Paris");
		assertThat(researcher.history("s1").block(TIMEOUT)).isEmpty();
		List<Message> parent = lead.history("s1").block(TIMEOUT);
		assertThat(parent).extracting(Message::text)
			.containsExactly("Where is the Eiffel tower?", "", "Paris", "It is Paris.");
		assertThat(parent.get(0)).isInstanceOf(UserMessage.class);
	}

	@Test
	void subAgentRunsWithTheParentsUserAndState() {
		ScriptedChatModel childModel = ScriptedChatModel.replaying(toolCalls(new ToolCall("k1", "whoami", "{}")),
				text("done"));
		Agent child = Agent.builder().name("child").model(childModel)
			.tool(TestTools.tool("whoami", (args, context) -> context.userId() + " " + context.state().get("tenant")
					+ " " + context.sessionId()))
			.build();
		Agent parent = Agent.builder().name("parent")
			.model(ScriptedChatModel.replaying(toolCalls(ask("c7", "child", "who?")), text("ok")))
			.tool(SubAgentTool.of(child))
			.build();

		parent.call(new AgentRequest("s1", "go", Map.of("tenant", "acme"), "u1"));

		List<Message> history = child.history("s1/child/c7").block(TIMEOUT);
		assertThat(history).extracting(Message::text).contains("u1 acme s1/child/c7");
	}

	@Test
	void usageAndCostOfTheSubAgentAreAddedToTheParentsTurn() {
		// 10 input and 5 output tokens per tool call response, 10 and 1 for "Paris"
		ConfiguredChatModel childModel = new ConfiguredChatModel("cheap", ScriptedChatModel.replaying(text("Paris")),
				ChatOptions.DEFAULTS, ModelPrice.of(1_000_000, 2_000_000), null);
		Agent child = Agent.builder().name("researcher").model(childModel).build();
		ConfiguredChatModel parentModel = new ConfiguredChatModel("big",
				ScriptedChatModel.replaying(toolCalls(ask("c1", "researcher", "capital?")), text("Paris it is")),
				ChatOptions.DEFAULTS, ModelPrice.of(1_000_000, 2_000_000), null);
		Agent parent = Agent.builder().name("lead").model(parentModel).tool(SubAgentTool.of(child)).build();

		AgentResult result = parent.call("s1", "capital?");

		// parent: (10, 5) + (10, 2); child: (10, 1)
		assertThat(result.usage().inputTokens()).isEqualTo(30);
		assertThat(result.usage().outputTokens()).isEqualTo(8);
		// parent: 10 + 10 + 10 + 4; child: 10 + 2
		assertThat(result.cost()).isEqualByComparingTo("46");
	}

	@Test
	void streamedParentShowsTheSubAgentsEventsBetweenItsToolCallAndResult() {
		Agent child = Agent.builder().name("researcher").model(ScriptedChatModel.replaying(text("Paris"))).build();
		Agent parent = Agent.builder().name("lead")
			.model(ScriptedChatModel.replaying(toolCalls(ask("c1", "researcher", "capital?")), text("Paris it is")))
			.tool(SubAgentTool.of(child))
			.build();

		List<AgentEvent> events = parent.stream(AgentRequest.of("s1", "capital?")).collectList().block(TIMEOUT);

		assertThat(events.subList(0, 6)).extracting(AgentEvent::type)
			.containsExactly("usage", "tool_call", "subagent", "subagent", "subagent", "tool_result");
		assertThat(events.subList(6, events.size())).extracting(AgentEvent::type).doesNotContain("subagent");
		List<AgentEvent.SubAgentEvent> nested = events.stream()
			.filter(AgentEvent.SubAgentEvent.class::isInstance)
			.map(AgentEvent.SubAgentEvent.class::cast)
			.toList();
		assertThat(nested).allSatisfy((event) -> {
			assertThat(event.toolCallId()).isEqualTo("c1");
			assertThat(event.agent()).isEqualTo("researcher");
		});
		assertThat(nested.get(0).event()).isEqualTo(new AgentEvent.TextDelta("Paris"));
		assertThat(nested.get(1).event()).isEqualTo(new AgentEvent.UsageReported(Usage.of(10, 1)));
		assertThat(nested.get(2).event()).isInstanceOfSatisfying(AgentEvent.Completed.class,
				(completed) -> assertThat(completed.result().sessionId()).isEqualTo("s1/researcher/c1"));
		assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(AgentEvent.Completed.class,
				(completed) -> assertThat(completed.result().usage()).isEqualTo(Usage.of(30, 8)));
	}

	@Test
	void nestedSubAgentsStreamOneLevelDeeperEach() {
		Agent leaf = Agent.builder().name("leaf").model(ScriptedChatModel.replaying(text("42"))).build();
		Agent middle = Agent.builder().name("middle")
			.model(ScriptedChatModel.replaying(toolCalls(ask("m1", "leaf", "compute")), text("leaf says 42")))
			.tool(SubAgentTool.of(leaf))
			.build();
		Agent top = Agent.builder().name("top")
			.model(ScriptedChatModel.replaying(toolCalls(ask("t1", "middle", "ask leaf")), text("42")))
			.tool(SubAgentTool.of(middle))
			.build();

		List<AgentEvent> events = top.stream(AgentRequest.of("s1", "answer?")).collectList().block(TIMEOUT);

		assertThat(events).filteredOn(AgentEvent.SubAgentEvent.class::isInstance)
			.map((event) -> ((AgentEvent.SubAgentEvent) event).event())
			.filteredOn(AgentEvent.SubAgentEvent.class::isInstance)
			.map(AgentEvent.SubAgentEvent.class::cast)
			.first()
			.satisfies((inner) -> {
				assertThat(inner.toolCallId()).isEqualTo("m1");
				assertThat(inner.agent()).isEqualTo("leaf");
				assertThat(inner.event()).isEqualTo(new AgentEvent.TextDelta("42"));
			});
		assertThat(leaf.history("s1/middle/t1/leaf/m1").block(TIMEOUT)).extracting(Message::text)
			.containsExactly("compute", "42");
	}

	@Test
	void subAgentsDeeperThanTheLimitAreNotRun() {
		depthLimitHolds(false);
	}

	@Test
	void depthLimitHoldsWhenStreamed() {
		depthLimitHolds(true);
	}

	private void depthLimitHolds(boolean streamed) {
		ScriptedChatModel leafModel = ScriptedChatModel.replaying(text("never"));
		Agent leaf = Agent.builder().name("leaf").model(leafModel).build();
		// leaf may run from a caller's turn only, not below another sub-agent
		Agent middle = Agent.builder().name("middle")
			.model(ScriptedChatModel.replaying(toolCalls(ask("m1", "leaf", "compute")), text("could not")))
			.tool(SubAgentTool.builder(leaf).maxDepth(1).build())
			.build();
		Agent top = Agent.builder().name("top")
			.model(ScriptedChatModel.replaying(toolCalls(ask("t1", "middle", "ask leaf")), text("sorry")))
			.tool(SubAgentTool.of(middle))
			.build();

		if (streamed) {
			top.stream(AgentRequest.of("s1", "go")).blockLast(TIMEOUT);
		}
		else {
			top.call("s1", "go");
		}

		assertThat(leafModel.requests()).isEmpty();
		List<Message> middleTurn = middle.history("s1/middle/t1").block(TIMEOUT);
		assertThat(middleTurn).filteredOn(ToolResultMessage.class::isInstance)
			.singleElement()
			.satisfies((message) -> {
				assertThat(((ToolResultMessage) message).error()).isTrue();
				assertThat(message.text()).contains("sub-agents nest at most 1 deep (max-depth 1)");
			});
	}

	@Test
	void subAgentPausedForApprovalIsAToolError() {
		Agent child = Agent.builder().name("cleaner")
			.model(ScriptedChatModel.replaying(toolCalls(new ToolCall("k1", "delete_file", "{}")), text("deleted")))
			.tool(TestTools.tool("delete_file", (args, context) -> "gone"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();
		Agent parent = Agent.builder().name("lead")
			.model(ScriptedChatModel.replaying(toolCalls(ask("c1", "cleaner", "clean up")), text("could not")))
			.tool(SubAgentTool.of(child))
			.build();

		AgentResult result = parent.call("s1", "clean up");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.toolExecutions()).singleElement().satisfies((execution) -> {
			assertThat(execution.error()).isTrue();
			assertThat(execution.result()).contains("agent 'cleaner' paused its turn for a person to approve [delete_file]")
				.doesNotContain("\tat ");
		});
	}

	@Test
	void failedSubAgentIsAToolErrorWithoutAStackTrace() {
		Agent child = Agent.builder().name("broken")
			.model(ScriptedChatModel.answering((request) -> {
				throw new ModelRequestException("scripted", 400, "bad request");
			}))
			.build();
		Agent parent = Agent.builder().name("lead")
			.model(ScriptedChatModel.replaying(toolCalls(ask("c1", "broken", "try")), text("it failed")))
			.tool(SubAgentTool.of(child))
			.build();

		List<AgentEvent> events = parent.stream(AgentRequest.of("s1", "go")).collectList().block(TIMEOUT);

		assertThat(events).filteredOn(AgentEvent.ToolCallCompleted.class::isInstance)
			.singleElement()
			.isInstanceOfSatisfying(AgentEvent.ToolCallCompleted.class, (completed) -> {
				assertThat(completed.error()).isTrue();
				assertThat(completed.result()).contains("agent 'broken' failed: model_error").doesNotContain("\tat ");
			});
		assertThat(events).filteredOn(AgentEvent.SubAgentEvent.class::isInstance)
			.last()
			.isInstanceOfSatisfying(AgentEvent.SubAgentEvent.class,
					(nested) -> assertThat(nested.event()).isInstanceOf(AgentEvent.Failed.class));
		assertThat(events.get(events.size() - 1)).isInstanceOf(AgentEvent.Completed.class);
	}

	@Test
	void invalidTasksAreArgumentErrors() {
		ScriptedChatModel childModel = ScriptedChatModel.replaying(text("never"));
		SubAgentTool tool = SubAgentTool.builder(Agent.builder().name("child").model(childModel).build())
			.maxTaskLength(5)
			.build();
		Agent parent = Agent.builder().name("lead")
			.model(ScriptedChatModel.replaying(
					toolCalls(new ToolCall("c1", "child", "{}"), ask("c2", "child", "far too long"),
							new ToolCall("c3", "child", "{\"task\": 3}")),
					text("ok")))
			.tool(tool)
			.build();

		AgentResult result = parent.call("s1", "go");

		assertThat(childModel.requests()).isEmpty();
		assertThat(result.toolExecutions()).extracting(ToolExecution::result)
			.containsExactly("Error: invalid arguments for tool 'child': 'task' is required and must be a non-blank string",
					"Error: invalid arguments for tool 'child': 'task' must be at most 5 characters, was 12; shorten it",
					"Error: invalid arguments for tool 'child': 'task' is required and must be a non-blank string");
	}

	@Test
	void specIsNamedAfterTheAgentWithABoundedTaskAndTheAgentsPermission() {
		Agent readOnly = Agent.builder().name("reader").model(ScriptedChatModel.replaying())
			.tool(TestTools.tool("look", (args, context) -> "seen"))
			.build();
		SubAgentTool tool = SubAgentTool.of(readOnly);

		assertThat(tool.spec().name()).isEqualTo("reader");
		assertThat(tool.spec().description()).contains("agent 'reader'");
		assertThat(tool.spec().inputSchema().toString()).isEqualTo("{\"type\":\"object\",\"properties\":{\"task\":"
				+ "{\"type\":\"string\",\"description\":\"The task, with everything needed to do it\",\"maxLength\":"
				+ SubAgentTool.DEFAULT_MAX_TASK_LENGTH + "}},\"required\":[\"task\"],\"additionalProperties\":false}");
		assertThat(tool.metadata().permission()).isEqualTo(ToolPermission.WRITE);
		assertThat(tool.metadata().timeout()).isEqualTo(readOnly.turnTimeout().plusSeconds(5));
		Agent noTools = Agent.builder().name("thinker").model(ScriptedChatModel.replaying()).build();
		assertThat(SubAgentTool.builder(noTools).name("think").description("Thinks hard").build().spec())
			.satisfies((spec) -> {
				assertThat(spec.name()).isEqualTo("think");
				assertThat(spec.description()).isEqualTo("Thinks hard");
			});
		assertThat(SubAgentTool.of(noTools).metadata().permission()).isEqualTo(ToolPermission.READ_ONLY);
		Agent dotted = Agent.builder().name("web.search").model(ScriptedChatModel.replaying()).build();
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> SubAgentTool.of(dotted))
			.withMessageContaining("'web.search'");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> SubAgentTool.builder(noTools).maxDepth(0));
	}

	@Test
	void calledOutsideAnAgentItRunsTheSubAgentAtDepthOne() throws Exception {
		Agent child = Agent.builder().name("child").model(ScriptedChatModel.replaying(text("hi"))).build();

		String answer = SubAgentTool.of(child).call("{\"task\":\"greet\"}", new ToolContext("x1", "s9", "app", Map.of()));

		assertThat(answer).isEqualTo("hi");
		assertThat(child.history("s9/child/x1").block(TIMEOUT)).hasSize(2);
	}

	@Test
	void childSessionIdsStayWithinTheBound() {
		assertThat(SubAgentTool.childSessionId("s1", "researcher", "c1")).isEqualTo("s1/researcher/c1");
		String parent = "p".repeat(AgentRequest.MAX_SESSION_ID_LENGTH);
		String hashed = SubAgentTool.childSessionId(parent, "researcher", "c1");
		assertThat(hashed).hasSizeLessThanOrEqualTo(AgentRequest.MAX_SESSION_ID_LENGTH)
			.matches("[0-9a-f]{64}/researcher/c1");
		String longCall = SubAgentTool.childSessionId("s1", "researcher", "c".repeat(300));
		assertThat(longCall).matches("subagent/[0-9a-f]{64}");
		assertThat(SubAgentTool.childSessionId(parent, "researcher", "c2")).isNotEqualTo(hashed);
	}

	@Test
	void aSubAgentsSessionBelongsToTheParentsCallerAndNoOneElse() {
		InMemoryKeyValueStore store = new InMemoryKeyValueStore();
		// a resolver that knows nobody, as Spring Security's on a tool's thread
		CallerResolver nobody = (view) -> Mono.empty();
		Agent researcher = Agent.builder().name("researcher").model(ScriptedChatModel.replaying(text("Paris")))
			.store(store).callers(nobody).build();
		Agent lead = Agent.builder().name("lead")
			.model(ScriptedChatModel.replaying(toolCalls(ask("c1", "researcher", "capital of France?")),
					text("It is Paris.")))
			.tool(SubAgentTool.of(researcher)).store(store).callers(nobody).build();
		AgentPrincipal alice = AgentPrincipal.of("alice");

		AgentResult result = lead.invoke(AgentRequest.of("s1", "Where is the Eiffel tower?"))
			.contextWrite(AgentPrincipal.context(alice))
			.block(TIMEOUT);

		assertThat(result.output()).isEqualTo("It is Paris.");
		String childSession = SubAgentTool.childSessionId("s1", "researcher", "c1");
		assertThat(SessionOwners.of(store).owner(childSession).block(TIMEOUT)).isEqualTo("alice");
		assertThat(researcher.history(childSession).contextWrite(AgentPrincipal.context(alice)).block(TIMEOUT))
			.extracting(Message::text)
			.containsExactly("capital of France?", "Paris");
		assertThatExceptionOfType(AgentAccessDeniedException.class).isThrownBy(() -> researcher.history(childSession)
			.contextWrite(AgentPrincipal.context(AgentPrincipal.of("bob")))
			.block(TIMEOUT));
	}

}
