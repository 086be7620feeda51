package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link NestedEventsTool} (such as a remote A2A agent) gets the calling turn's
 * {@link NestedEvents}: what it reports reaches a streamed turn as
 * {@link AgentEvent.SubAgentEvent}s between the call's {@code tool_call} and
 * {@code tool_result}, and nothing when the turn is not streamed.
 */
class NestedEventsToolTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Test
	void whatTheToolReportsIsNestedInAStreamedTurn() {
		Agent lead = agent();

		List<AgentEvent> events = lead.stream(new AgentRequest("s1", "go", Map.of())).collectList().block(TIMEOUT);

		assertThat(events).isNotNull();
		assertThat(events).filteredOn((event) -> !(event instanceof AgentEvent.UsageReported))
			.extracting(AgentEvent::type)
			.containsExactly("tool_call", "subagent", "subagent", "tool_result", "text", "completed");
		assertThat(events).filteredOn(AgentEvent.SubAgentEvent.class::isInstance)
			.containsExactly(new AgentEvent.SubAgentEvent("c1", "remote", new AgentEvent.TextDelta("streaming: true")),
					new AgentEvent.SubAgentEvent("c1", "remote", new AgentEvent.TextDelta("done")));
	}

	@Test
	void aTurnThatIsNotStreamedGetsNoEventsAndTheToolKnows() {
		Agent lead = agent();

		AgentResult result = lead.call(new AgentRequest("s1", "go", Map.of()));

		assertThat(result.toolExecutions()).singleElement()
			.satisfies((execution) -> assertThat(execution.result()).isEqualTo("streaming: false"));
	}

	@Test
	void calledOutsideATurnItGetsNoEvents() throws Exception {
		assertThat(new Remote().call("{}", new ToolContext("c1", "s1", "lead", Map.of()))).isEqualTo("streaming: false");
	}

	private static Agent agent() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(toolCalls(new ToolCall("c1", "remote", "{}")), text("ok"));
		return Agent.builder().name("lead").model(model).tool(new Remote()).build();
	}

	/** Reports whether the turn streams, then that it is done; answers whether it streamed. */
	static final class Remote implements NestedEventsTool {

		@Override
		public ToolSpec spec() {
			return new ToolSpec("remote", "A remote agent", AgentJson.mapper().createObjectNode().put("type", "object"));
		}

		@Override
		public String call(String arguments, ToolContext context, NestedEvents events) {
			events.event("remote", new AgentEvent.TextDelta("streaming: " + events.streaming()));
			events.event("remote", new AgentEvent.TextDelta("done"));
			return "streaming: " + events.streaming();
		}

	}

}
