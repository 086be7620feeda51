package dev.agcore.autoconfigure.web;

import dev.agcore.json.AgentJson;
import dev.agcore.runtime.AgentEvent;
import org.junit.jupiter.api.Test;

import org.springframework.http.codec.ServerSentEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AgentViews}.
 */
class AgentViewsTests {

	@Test
	void toolProgressIsAToolProgressEventWithoutEmptyFields() {
		ServerSentEvent<Object> withTotal = AgentViews
			.event(new AgentEvent.ToolProgress("c1", "files__copy", 2, 5.0, "copying"), false);
		ServerSentEvent<Object> withoutTotal = AgentViews
			.event(new AgentEvent.ToolProgress("c1", "files__copy", 3, null, null), false);

		assertThat(withTotal.event()).isEqualTo("tool_progress");
		assertThat(AgentJson.mapper().writeValueAsString(withTotal.data()))
			.isEqualTo("{\"id\":\"c1\",\"name\":\"files__copy\",\"progress\":2.0,\"total\":5.0,\"message\":\"copying\"}");
		assertThat(AgentJson.mapper().writeValueAsString(withoutTotal.data()))
			.isEqualTo("{\"id\":\"c1\",\"name\":\"files__copy\",\"progress\":3.0}");
	}

	@Test
	void subAgentEventsNestTheSubAgentsEventWithItsTypeAndData() {
		ServerSentEvent<Object> text = AgentViews
			.event(new AgentEvent.SubAgentEvent("c1", "researcher", new AgentEvent.TextDelta("Paris")), false);
		ServerSentEvent<Object> deeper = AgentViews.event(new AgentEvent.SubAgentEvent("c1", "researcher",
				new AgentEvent.SubAgentEvent("c9", "searcher", new AgentEvent.ToolCallStarted("k1", "search", "{}"))),
				false);

		assertThat(text.event()).isEqualTo("subagent");
		assertThat(AgentJson.mapper().writeValueAsString(text.data())).isEqualTo(
				"{\"toolCallId\":\"c1\",\"agent\":\"researcher\",\"type\":\"text\",\"data\":{\"text\":\"Paris\"}}");
		assertThat(AgentJson.mapper().writeValueAsString(deeper.data()))
			.isEqualTo("{\"toolCallId\":\"c1\",\"agent\":\"researcher\",\"type\":\"subagent\",\"data\":"
					+ "{\"toolCallId\":\"c9\",\"agent\":\"searcher\",\"type\":\"tool_call\",\"data\":"
					+ "{\"id\":\"k1\",\"name\":\"search\",\"arguments\":\"{}\"}}}");
	}

	@Test
	void aRunnerFallbackIsARunnerFallbackEvent() {
		ServerSentEvent<Object> event = AgentViews.event(new AgentEvent.RunnerFallback("react", "planner", "max_iterations"),
				false);

		assertThat(event.event()).isEqualTo("runner_fallback");
		assertThat(AgentJson.mapper().writeValueAsString(event.data()))
			.isEqualTo("{\"from\":\"react\",\"to\":\"planner\",\"reason\":\"max_iterations\"}");
	}

}
