package dev.agcore.autoconfigure.web.agui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.PendingTurn;
import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How agent events become AG-UI events: the ids that tie them together, what is closed
 * before what, and the state snapshots of plans and to-do lists.
 */
class AgUiEventsTests {

	private final AtomicInteger ids = new AtomicInteger();

	private final AgUiEvents encoder = AgUiEvents.of("thread-1", "run-1", Map.of("client", "kept"),
			() -> "id-" + this.ids.incrementAndGet());

	@Test
	void textAndToolCallsOfOneModelResponseShareTheirAssistantMessage() {
		List<Map<String, Object>> events = encode(new AgentEvent.TextDelta("Let me look."),
				new AgentEvent.ToolCallStarted("c1", "get_weather", "{\"city\":\"Lima\"}"),
				new AgentEvent.ToolCallStarted("c2", "get_weather", "{\"city\":\"Quito\"}"),
				new AgentEvent.ToolCallCompleted("c1", "get_weather", "Sunny", false),
				new AgentEvent.ToolCallCompleted("c2", "get_weather", "failed: timeout", true),
				new AgentEvent.TextDelta("Sunny in Lima."), completed());
		assertThat(json(events)).containsExactly(
				"{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"protocolVersion\":\"1.0\"}",
				"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"id-1\",\"role\":\"assistant\"}",
				"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"id-1\",\"delta\":\"Let me look.\"}",
				"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"id-1\"}",
				"{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"get_weather\",\"parentMessageId\":\"id-1\"}",
				"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"city\\\":\\\"Lima\\\"}\"}",
				"{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}",
				"{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c2\",\"toolCallName\":\"get_weather\",\"parentMessageId\":\"id-1\"}",
				"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c2\",\"delta\":\"{\\\"city\\\":\\\"Quito\\\"}\"}",
				"{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c2\"}",
				"{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"id-2\",\"toolCallId\":\"c1\",\"content\":\"Sunny\",\"role\":\"tool\"}",
				"{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"id-3\",\"toolCallId\":\"c2\",\"content\":\"failed: timeout\",\"role\":\"tool\"}",
				"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"id-4\",\"role\":\"assistant\"}",
				"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"id-4\",\"delta\":\"Sunny in Lima.\"}",
				"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"id-4\"}",
				"{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"usage\":[{\"inputTokens\":10,\"outputTokens\":5,\"totalTokens\":15}]}");
	}

	@Test
	void reasoningIsItsOwnMessageClosedBeforeTheAnswer() {
		assertThat(types(encode(new AgentEvent.ReasoningDelta("Hmm"), new AgentEvent.ReasoningDelta("..."),
				new AgentEvent.TextDelta("Yes"), completed())))
			.containsExactly("RUN_STARTED", "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
					"REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END", "TEXT_MESSAGE_START",
					"TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED");
	}

	@Test
	void aTextResetEndsTheMessageAndNamesItAsVoid() {
		List<Map<String, Object>> events = encode(new AgentEvent.TextDelta("Draft"), new AgentEvent.TextReset(),
				new AgentEvent.TextDelta("Final"), completed());
		assertThat(types(events)).containsExactly("RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
				"TEXT_MESSAGE_END", "CUSTOM", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
				"RUN_FINISHED");
		assertThat(events.get(4)).isEqualTo(
				Map.of("type", "CUSTOM", "name", "agcore.text_reset", "value", Map.of("messageId", "id-1")));
		assertThat(events.get(5).get("messageId")).isEqualTo("id-2");
	}

	@Test
	void aSubAgentsEventsAreAttributedToItsRunAndItEndsBeforeItsToolCall() {
		List<Map<String, Object>> events = encode(new AgentEvent.ToolCallStarted("c1", "researcher", "{}"),
				new AgentEvent.SubAgentEvent("c1", "researcher", new AgentEvent.TextDelta("Found it")),
				new AgentEvent.SubAgentEvent("c1", "researcher",
						new AgentEvent.SubAgentEvent("n1", "fact-checker", new AgentEvent.TextDelta("True"))),
				new AgentEvent.SubAgentEvent("c1", "researcher",
						new AgentEvent.SubAgentEvent("n1", "fact-checker", new AgentEvent.Failed("model_error", "down"))),
				new AgentEvent.SubAgentEvent("c1", "researcher", completed()),
				new AgentEvent.ToolCallCompleted("c1", "researcher", "Found it", false), completed());
		assertThat(json(events.subList(4, events.size()))).containsExactly(
				"{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"id-2\",\"name\":\"researcher\",\"parentToolCallId\":\"c1\",\"parentMessageId\":\"id-1\"}",
				"{\"type\":\"TEXT_MESSAGE_START\",\"subagentRunId\":\"id-2\",\"messageId\":\"id-3\",\"role\":\"assistant\"}",
				"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"subagentRunId\":\"id-2\",\"messageId\":\"id-3\",\"delta\":\"Found it\"}",
				"{\"type\":\"TEXT_MESSAGE_END\",\"subagentRunId\":\"id-2\",\"messageId\":\"id-3\"}",
				"{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"id-4\",\"name\":\"fact-checker\",\"parentSubagentRunId\":\"id-2\",\"parentToolCallId\":\"n1\"}",
				"{\"type\":\"TEXT_MESSAGE_START\",\"subagentRunId\":\"id-4\",\"messageId\":\"id-5\",\"role\":\"assistant\"}",
				"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"subagentRunId\":\"id-4\",\"messageId\":\"id-5\",\"delta\":\"True\"}",
				"{\"type\":\"TEXT_MESSAGE_END\",\"subagentRunId\":\"id-4\",\"messageId\":\"id-5\"}",
				"{\"type\":\"SUBAGENT_ERROR\",\"subagentRunId\":\"id-4\",\"message\":\"down\",\"code\":\"model_error\"}",
				"{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"id-2\"}",
				"{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"id-6\",\"toolCallId\":\"c1\",\"content\":\"Found it\",\"role\":\"tool\"}",
				"{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"usage\":[{\"inputTokens\":10,\"outputTokens\":5,\"totalTokens\":15}]}");
	}

	@Test
	void planStepsAreStepsAndThePlanIsTheState() {
		Plan plan = Plan.of("Trip", List.of("Book the flight", "Book the hotel"));
		Plan first = plan.withStep(plan.step(0).start());
		Plan done = first.withStep(first.step(0).complete("booked"));
		Plan second = done.withStep(done.step(1).start());
		List<Map<String, Object>> events = encode(new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.PLAN_CREATED, plan, null),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_STARTED, first, 0),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_COMPLETED, done, 0),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_STARTED, second, 1), completed());
		assertThat(types(events)).containsExactly("RUN_STARTED", "STATE_SNAPSHOT", "STEP_STARTED", "STATE_SNAPSHOT",
				"STEP_FINISHED", "STATE_SNAPSHOT", "STEP_STARTED", "STATE_SNAPSHOT", "STEP_FINISHED", "RUN_FINISHED");
		assertThat(events.get(2).get("stepName")).isEqualTo("1. Book the flight");
		assertThat(events.get(4).get("stepName")).isEqualTo("1. Book the flight");
		// a step still open when the run ends is finished first
		assertThat(events.get(8).get("stepName")).isEqualTo("2. Book the hotel");
		String state = AgentJson.mapper().writeValueAsString(events.get(5).get("snapshot"));
		assertThat(state).startsWith("{\"client\":\"kept\",\"plan\":{\"id\":\"" + plan.id() + "\",\"goal\":\"Trip\"")
			.contains("{\"index\":0,\"description\":\"Book the flight\",\"dependsOn\":[],\"status\":\"completed\","
					+ "\"result\":\"booked\"}");
	}

	@Test
	void aToDoListWrittenIsTheState() {
		String todos = "{\"todos\":[{\"content\":\"Pack\",\"status\":\"in_progress\"}]}";
		List<Map<String, Object>> events = encode(new AgentEvent.ToolCallStarted("c1", "write_todos", todos),
				new AgentEvent.ToolCallCompleted("c1", "write_todos", "To-do list saved", false),
				new AgentEvent.ToolCallStarted("c2", "write_todos", "{\"todos\":[]}"),
				new AgentEvent.ToolCallCompleted("c2", "write_todos", "invalid", true), completed());
		assertThat(types(events)).containsExactly("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
				"TOOL_CALL_RESULT", "STATE_SNAPSHOT", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
				"TOOL_CALL_RESULT", "RUN_FINISHED");
		assertThat(AgentJson.mapper().writeValueAsString(events.get(5).get("snapshot")))
			.isEqualTo("{\"client\":\"kept\",\"todos\":[{\"content\":\"Pack\",\"status\":\"in_progress\"}]}");
	}

	@Test
	void aTurnPausedForApprovalEndsWithAnInterruptPerPendingCall() {
		AgentResult paused = new AgentResult("thread-1", "", AgentResult.Status.INTERRUPTED, Usage.EMPTY, List.of(),
				List.of(), List.of(new PendingTurn.PendingToolCall("c1", "delete_file", "{\"path\":\"a\"}",
						"needs approval")));
		List<Map<String, Object>> events = encode(new AgentEvent.Interrupted(paused));
		assertThat(json(events.subList(1, events.size()))).containsExactly(
				"{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"delete_file\",\"parentMessageId\":\"id-1\"}",
				"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"path\\\":\\\"a\\\"}\"}",
				"{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}",
				"{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\",\"outcome\":{\"type\":\"interrupt\","
						+ "\"interrupts\":[{\"id\":\"c1\",\"reason\":\"tool_approval\",\"message\":\"needs approval\","
						+ "\"toolCallId\":\"c1\",\"metadata\":{\"toolName\":\"delete_file\"}}]}}");
	}

	@Test
	void aFailureClosesWhatIsOpenAndEndsWithARunError() {
		List<Map<String, Object>> events = encode(new AgentEvent.TextDelta("Partial"),
				new AgentEvent.Failed("model_error", "The model failed"));
		assertThat(json(events.subList(1, events.size()))).containsExactly(
				"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"id-1\",\"role\":\"assistant\"}",
				"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"id-1\",\"delta\":\"Partial\"}",
				"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"id-1\"}",
				"{\"type\":\"RUN_ERROR\",\"message\":\"The model failed\",\"code\":\"model_error\"}");
	}

	private List<Map<String, Object>> encode(AgentEvent... events) {
		List<Map<String, Object>> encoded = new ArrayList<>(this.encoder.started());
		for (AgentEvent event : events) {
			encoded.addAll(this.encoder.next(event));
		}
		return encoded;
	}

	private static AgentEvent completed() {
		return new AgentEvent.Completed(new AgentResult("thread-1", "done", AgentResult.Status.COMPLETED,
				new Usage(10, 5, 15), List.of(), List.of()));
	}

	private static List<String> json(List<Map<String, Object>> events) {
		return events.stream().map((event) -> AgentJson.mapper().writeValueAsString(event)).toList();
	}

	private static List<Object> types(List<Map<String, Object>> events) {
		return events.stream().map((event) -> event.get("type")).toList();
	}

}
