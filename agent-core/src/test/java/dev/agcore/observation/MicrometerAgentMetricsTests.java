package dev.agcore.observation;

import java.util.concurrent.TimeUnit;

import dev.agcore.message.ToolCall;
import dev.agcore.model.ModelServerException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.TestTools;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
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

	private static ToolCallback tool(String name, boolean fail) {
		return TestTools.tool(name, (arguments, context) -> {
			if (fail) {
				throw new IllegalStateException("fails");
			}
			return "ok";
		});
	}

}
