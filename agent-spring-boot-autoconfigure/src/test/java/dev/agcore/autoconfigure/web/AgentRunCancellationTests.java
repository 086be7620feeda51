package dev.agcore.autoconfigure.web;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.agcore.autoconfigure.web.RunRoutes.events;
import static dev.agcore.autoconfigure.web.RunRoutes.get;
import static dev.agcore.autoconfigure.web.RunRoutes.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cancelling a running agent run over HTTP stops its work: the tool that runs is
 * interrupted, the model is not called again, and the run ends {@code cancelled}.
 */
class AgentRunCancellationTests {

	private static final String RUNS = "/agents/assistant/runs";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, RunAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("slowTools", SlowTools.class)
		.withBean("scripted", ChatModel.class, AgentRunCancellationTests::model)
		.withPropertyValues("agent.web.enabled=true", "agent.runs.poll-interval=50ms",
				"agent.runs.heartbeat-interval=100ms", "agent.runs.lease=2s", "agent.agents.assistant.tool-timeout=1m");

	private static final AtomicInteger modelCalls = new AtomicInteger();

	@Test
	void cancellingARunningRunInterruptsItsToolAndCallsTheModelNoMore() {
		modelCalls.set(0);
		this.contextRunner.run((context) -> {
			WebTestClient client = RunRoutes.client(context);
			SlowTools tools = context.getBean(SlowTools.class);
			String id = post(client, RUNS, Map.of("sessionId", "c1", "message", "Crunch the numbers"),
					HttpStatus.ACCEPTED)
				.get("id")
				.asString();
			assertThat(tools.started.await(10, TimeUnit.SECONDS)).as("the tool started").isTrue();

			JsonNode cancelling = post(client, RUNS + "/" + id + "/cancel", Map.of(), HttpStatus.OK);

			assertThat(cancelling.get("status").asString()).isIn("running", "cancelled");
			assertThat(tools.interrupted.await(10, TimeUnit.SECONDS)).as("the tool was interrupted").isTrue();
			assertThat(events(client, RUNS + "/" + id + "/events", null)).extracting(ServerSentEvent::event)
				.startsWith("run_started")
				.contains("tool_call")
				.endsWith("cancelled");
			JsonNode run = get(client, RUNS + "/" + id, HttpStatus.OK);
			assertThat(run.get("status").asString()).isEqualTo("cancelled");
			assertThat(modelCalls).as("no model call after the tool").hasValue(1);
			assertThat(tools.finished).isFalse();
		});
	}

	private static ChatModel model() {
		return ScriptedChatModel.answering((request) -> {
			modelCalls.incrementAndGet();
			return ScriptedChatModel.toolCalls(new ToolCall("call-1", "crunch", "{\"what\":\"numbers\"}"));
		});
	}

	/** A tool that works until it is interrupted. */
	public static class SlowTools {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch interrupted = new CountDownLatch(1);

		final AtomicBoolean finished = new AtomicBoolean();

		@Tool(name = "crunch", description = "Crunch numbers for a long time", secrets = {})
		public String crunch(@ToolParam(description = "What to crunch") String what) {
			this.started.countDown();
			try {
				Thread.sleep(60_000);
				this.finished.set(true);
				return "crunched " + what;
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		}

	}

}
