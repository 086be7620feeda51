package dev.agcore.autoconfigure.workflow;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.RunRoutes;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.agcore.autoconfigure.web.RunRoutes.events;
import static dev.agcore.autoconfigure.web.RunRoutes.get;
import static dev.agcore.autoconfigure.web.RunRoutes.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A workflow of {@code @Task}s run in the background over HTTP, as a newcomer drives it
 * from docs/workflows.md: submitted, interrupted for a human, resumed, completed; and
 * input the entrypoint cannot take refused when the run is submitted.
 */
class WorkflowRunsEndpointTests {

	private static final String RUNS = "/workflows/report/runs";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class,
				WorkflowAutoConfiguration.class,
				RunAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withUserConfiguration(ReportWorkflow.ReportConfiguration.class)
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
		.withPropertyValues("agent.web.enabled=true", "agent.runs.poll-interval=50ms",
				"agent.runs.heartbeat-interval=100ms", "agent.runs.lease=2s");

	@BeforeEach
	void resetCounters() {
		ReportWorkflow.resetCounters();
	}

	@Test
	void runIsInterruptedResumedAndCompletedWithoutRunningFinishedTasksAgain() {
		this.contextRunner.run(withClient((client) -> {
			JsonNode run = post(client, RUNS, Map.of("input", Map.of("topic", "tea")), HttpStatus.ACCEPTED);
			String id = run.get("id").asString();
			assertThat(run.get("kind").asString()).isEqualTo("workflow");
			assertThat(run.get("sessionId").asString()).as("a session is made up when none is given").isNotBlank();

			List<ServerSentEvent<String>> first = events(client, RUNS + "/" + id + "/events", null);
			assertThat(first).extracting(ServerSentEvent::event)
				.containsExactly("run_started", "task_started", "task_completed", "task_started", "task_completed",
						"interrupted");
			assertThat(first.get(5).data()).contains("draft of facts about tea");
			JsonNode interrupted = get(client, RUNS + "/" + id, HttpStatus.OK);
			assertThat(interrupted.get("status").asString()).isEqualTo("interrupted");
			assertThat(interrupted.at("/result/draft").asString()).isEqualTo("draft of facts about tea");

			JsonNode resumed = post(client, RUNS + "/" + id + "/resume", Map.of("resume", Map.of("approved", true)),
					HttpStatus.ACCEPTED);
			assertThat(resumed.get("status").asString()).isEqualTo("queued");
			List<ServerSentEvent<String>> rest = events(client, RUNS + "/" + id + "/events",
					first.get(first.size() - 1).id());
			assertThat(rest).extracting(ServerSentEvent::event)
				.containsExactly("run_started", "task_completed", "task_completed", "task_started", "task_completed",
						"completed");
			assertThat(rest.get(1).data()).contains("\"cached\":true");
			JsonNode completed = RunRoutes.awaitStatus(client, RUNS + "/" + id, "completed");
			assertThat(completed.at("/result/text").asString()).isEqualTo("DRAFT OF FACTS ABOUT TEA");
			assertThat(completed.at("/result/approved").asBoolean()).isTrue();
			assertThat(ReportWorkflow.FETCHES).hasValue(1);
			assertThat(ReportWorkflow.DRAFTS).hasValue(1);
			assertThat(ReportWorkflow.PUBLISHES).hasValue(1);
		}));
	}

	@Test
	void inputTheEntrypointCannotTakeIsRefusedWhenSubmitted() {
		this.contextRunner.run(withClient((client) -> {
			JsonNode number = post(client, RUNS, Map.of("input", 5), HttpStatus.BAD_REQUEST);
			assertThat(number.get("error").asString()).isEqualTo("bad_request");
			assertThat(number.get("message").asString()).contains("workflow 'report'").contains("Topic");
			JsonNode missing = post(client, RUNS, Map.of("sessionId", "s1"), HttpStatus.BAD_REQUEST);
			assertThat(missing.get("message").asString()).contains("input of workflow 'report' is missing");
			assertThat(get(client, RUNS + "?sessionId=s1", HttpStatus.OK)).as("nothing was queued").isEmpty();
			JsonNode unknown = post(client, "/workflows/nope/runs", Map.of("input", Map.of()), HttpStatus.NOT_FOUND);
			assertThat(unknown.get("message").asString()).contains("nope").contains("report");
			assertThat(ReportWorkflow.FETCHES).hasValue(0);
		}));
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(Consumer<WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			test.accept(RunRoutes.client(context));
		};
	}

}
