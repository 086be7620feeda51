package dev.agcore.observation;

import java.util.concurrent.TimeUnit;

import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelPrice;
import dev.agcore.model.ModelServerException;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.TestTools;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class MicrometerAgentMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void agentTurnRecordsTokenUsageModelDurationAndToolCalls() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(toolCalls(new ToolCall("c1", "lookup", "{}"), new ToolCall("c2", "broken", "{}")),
					text("answer"))
			.withModelName("gpt-test");
		Agent agent = Agent.builder().name("helper").model(model).metrics(new MicrometerAgentMetrics(this.registry))
			.tool(tool("lookup", false)).tool(tool("broken", true)).build();

		AgentResult result = agent.call("s1", "question");

		assertThat(result.usage().inputTokens()).isEqualTo(20);
		DistributionSummary input = this.registry.get("gen_ai.client.token.usage")
			.tags("gen_ai.operation.name", "chat", "gen_ai.provider.name", "scripted", "gen_ai.request.model",
					"gpt-test", "gen_ai.token.type", "input")
			.summary();
		assertThat(input.count()).isEqualTo(2);
		assertThat(input.totalAmount()).isEqualTo(20);
		DistributionSummary output = this.registry.get("gen_ai.client.token.usage")
			.tags("gen_ai.token.type", "output")
			.summary();
		assertThat(output.totalAmount()).isEqualTo(5 + 1);
		Timer duration = this.registry.get("gen_ai.client.operation.duration").tag("error.type", "none").timer();
		assertThat(duration.count()).isEqualTo(2);
		assertThat(this.registry.get("agent.tool.calls")
			.tags("agent", "helper", "tool", "lookup", "outcome", "success")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("agent.tool.calls")
			.tags("agent", "helper", "tool", "broken", "outcome", "error")
			.timer()
			.count()).isEqualTo(1);
	}

	@Test
	void failedModelCallIsTimedWithItsErrorTypeAndRecordsNoTokens() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("scripted", 500, "down");
		});
		Agent agent = Agent.builder().name("helper").model(model).metrics(new MicrometerAgentMetrics(this.registry))
			.build();

		assertThatExceptionOfType(ModelServerException.class).isThrownBy(() -> agent.call("s1", "q"));

		Timer failed = this.registry.get("gen_ai.client.operation.duration")
			.tag("error.type", "ModelServerException")
			.timer();
		assertThat(failed.count()).isEqualTo(1);
		assertThat(failed.totalTime(TimeUnit.NANOSECONDS)).isPositive();
		assertThat(this.registry.find("gen_ai.client.token.usage").meters()).isEmpty();
	}

	@Test
	void modelCostIsRecordedUnderTheConfiguredNameWithTheAgent() {
		ScriptedChatModel scripted = ScriptedChatModel.replaying(text("answer")).withModelName("gpt-test");
		// 10 input and 1 output token at 1 and 2 per token
		ConfiguredChatModel model = new ConfiguredChatModel("fast", scripted, ChatOptions.DEFAULTS,
				ModelPrice.of(1_000_000, 2_000_000), null);
		Agent agent = Agent.builder().name("helper").model(model).metrics(new MicrometerAgentMetrics(this.registry))
			.build();

		AgentResult result = agent.call("s1", "question");

		assertThat(result.cost()).isEqualByComparingTo("12");
		Counter cost = this.registry.get("agent.cost")
			.tags("agent", "helper", "provider", "scripted", "model", "fast")
			.counter();
		assertThat(cost.count()).isEqualTo(12.0);
	}

	@Test
	void costOfEveryPricedCallOfATurnIsAddedUpAlsoWhenStreamed() {
		ScriptedChatModel scripted = ScriptedChatModel
			.replaying(toolCalls(new ToolCall("c1", "lookup", "{}")), text("answer"));
		ConfiguredChatModel model = new ConfiguredChatModel("fast", scripted, ChatOptions.DEFAULTS,
				ModelPrice.of(1_000_000, 2_000_000), null);
		Agent agent = Agent.builder().name("helper").model(model).metrics(new MicrometerAgentMetrics(this.registry))
			.tool(tool("lookup", false)).build();

		AgentEvent last = agent.stream(AgentRequest.of("s1", "question")).blockLast();

		// (10 + 2 * 5) for the tool call, (10 + 2 * 1) for the answer
		assertThat(last).isInstanceOfSatisfying(AgentEvent.Completed.class,
				(completed) -> assertThat(completed.result().cost()).isEqualByComparingTo("32"));
		assertThat(this.registry.get("agent.cost").counter().count()).isEqualTo(32.0);
	}

	@Test
	void modelWithoutPriceRecordsNoCost() {
		ScriptedChatModel scripted = ScriptedChatModel.replaying(text("answer"));
		Agent agent = Agent.builder().name("helper").model(scripted).metrics(new MicrometerAgentMetrics(this.registry))
			.build();

		AgentResult result = agent.call("s1", "question");

		assertThat(result.cost()).isNull();
		assertThat(this.registry.find("agent.cost").meters()).isEmpty();
	}

	@Test
	void streamedModelCallRecordsTimeToFirstChunk() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("a streamed answer")).withModelName("gpt-test");
		Agent agent = Agent.builder().name("helper").model(model).metrics(new MicrometerAgentMetrics(this.registry))
			.build();

		agent.stream(AgentRequest.of("s1", "question")).blockLast();

		Timer firstChunk = this.registry.get("gen_ai.client.operation.time_to_first_chunk")
			.tags("gen_ai.operation.name", "chat", "gen_ai.provider.name", "scripted", "gen_ai.request.model",
					"gpt-test")
			.timer();
		assertThat(firstChunk.count()).isEqualTo(1);
		assertThat(firstChunk.totalTime(TimeUnit.NANOSECONDS)).isPositive();
	}

	@Test
	void calledModelRecordsNoTimeToFirstChunk() {
		Agent agent = Agent.builder().name("helper").model(ScriptedChatModel.replaying(text("a")))
			.metrics(new MicrometerAgentMetrics(this.registry)).build();

		agent.call("s1", "question");

		assertThat(this.registry.find("gen_ai.client.operation.time_to_first_chunk").meters()).isEmpty();
	}

	private static ToolCallback tool(String name, boolean fail) {
		return TestTools.tool(name, (arguments, context) -> {
			if (fail) {
				throw new IllegalStateException("fails");
			}
			return "ok";
		});
	}

}
