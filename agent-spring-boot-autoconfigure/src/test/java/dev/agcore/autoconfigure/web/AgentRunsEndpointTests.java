package dev.agcore.autoconfigure.web;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.agcore.autoconfigure.web.RunRoutes.events;
import static dev.agcore.autoconfigure.web.RunRoutes.get;
import static dev.agcore.autoconfigure.web.RunRoutes.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * End-to-end tests of the run routes of {@link AgentWebAutoConfiguration}: an agent whose
 * tool needs approval, so that its runs pause and are resumed through the run routes.
 */
class AgentRunsEndpointTests {

	private static final String RUNS = "/agents/assistant/runs";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, RunAutoConfiguration.class,
				AgentWebAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class)
		.withBean("scripted", ChatModel.class, AgentResumeEndpointTests::deletingModel)
		.withPropertyValues("agent.web.enabled=true", "agent.runs.poll-interval=50ms",
				"agent.runs.heartbeat-interval=100ms", "agent.runs.lease=2s",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone");

	@Test
	void runIsSubmittedPausedForApprovalResumedAndStreamedWithLastEventId() {
		this.contextRunner.run(withClient((client, tools) -> {
			EntityExchangeResult<JsonNode> submitted = client.post()
				.uri(RUNS)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("sessionId", "s1", "message", "Delete /tmp/a"))
				.exchange()
				.expectStatus()
				.isEqualTo(HttpStatus.ACCEPTED)
				.expectBody(JsonNode.class)
				.returnResult();
			JsonNode run = submitted.getResponseBody();
			String id = run.get("id").asString();
			assertThat(run.get("kind").asString()).isEqualTo("agent");
			assertThat(run.get("target").asString()).isEqualTo("assistant");
			assertThat(submitted.getResponseHeaders().getLocation()).hasToString(RUNS + "/" + id);
			JsonNode paused = RunRoutes.awaitStatus(client, RUNS + "/" + id, "interrupted");
			assertThat(paused.get("result").get("pendingToolCalls").get(0).get("id").asString()).isEqualTo("call-1");
			assertThat(tools.calls()).isEmpty();
			List<ServerSentEvent<String>> first = events(client, RUNS + "/" + id + "/events", null);
			assertThat(first).extracting(ServerSentEvent::event).startsWith("run_started").endsWith("interrupted");
			assertThat(first).extracting(ServerSentEvent::id)
				.containsExactly(ids(first.size()).toArray(String[]::new));
			String lastSeen = first.get(first.size() - 1).id();
			JsonNode resumed = post(client, RUNS + "/" + id + "/resume",
					Map.of("decisions", Map.of("call-1", Map.of("type", "approve"))), HttpStatus.ACCEPTED);
			assertThat(resumed.get("status").asString()).isEqualTo("queued");
			JsonNode completed = RunRoutes.awaitStatus(client, RUNS + "/" + id, "completed");
			assertThat(completed.get("result").get("output").asString()).isEqualTo("Done: Deleted /tmp/a");
			assertThat(completed.get("attempts").asInt()).as("claims since the resume").isEqualTo(1);
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");
			List<ServerSentEvent<String>> rest = events(client, RUNS + "/" + id + "/events", lastSeen);
			assertThat(rest).extracting(ServerSentEvent::event).startsWith("run_started").endsWith("completed");
			assertThat(Long.parseLong(rest.get(0).id())).isEqualTo(Long.parseLong(lastSeen) + 1);
			assertThat(rest).extracting(ServerSentEvent::event).doesNotContain("interrupted");
			List<ServerSentEvent<String>> after = events(client, RUNS + "/" + id + "/events?after=" + lastSeen, null);
			assertThat(after).extracting(ServerSentEvent::id).isEqualTo(rest.stream().map(ServerSentEvent::id).toList());
			JsonNode list = get(client, RUNS + "?sessionId=s1", HttpStatus.OK);
			assertThat(list.get(0).get("id").asString()).isEqualTo(id);
			// done: resuming again conflicts
			JsonNode conflict = post(client, RUNS + "/" + id + "/resume", Map.of("decisions", Map.of()),
					HttpStatus.CONFLICT);
			assertThat(conflict.get("error").asString()).isEqualTo("run_conflict");
		}));
	}

	@Test
	void scheduledRunIsCancelledBeforeItStarts() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode run = post(client, RUNS, Map.of("sessionId", "s2", "message", "Delete /tmp/b", "delay", "1h"),
					HttpStatus.ACCEPTED);
			String id = run.get("id").asString();
			JsonNode cancelled = post(client, RUNS + "/" + id + "/cancel", Map.of(), HttpStatus.OK);
			assertThat(cancelled.get("status").asString()).isEqualTo("cancelled");
			assertThat(cancelled.get("finishedAt").isNull()).isFalse();
			assertThat(events(client, RUNS + "/" + id + "/events", null)).extracting(ServerSentEvent::event)
				.containsExactly("cancelled");
			assertThat(tools.calls()).isEmpty();
		}));
	}

	@Test
	void errorsNameWhatIsWrong() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode unknown = post(client, "/agents/nope/runs", Map.of("sessionId", "s", "message", "hi"),
					HttpStatus.NOT_FOUND);
			assertThat(unknown.get("error").asString()).isEqualTo("not_found");
			assertThat(unknown.get("message").asString()).contains("nope").contains("assistant");
			JsonNode noMessage = post(client, RUNS, Map.of("sessionId", "s"), HttpStatus.BAD_REQUEST);
			assertThat(noMessage.get("error").asString()).isEqualTo("bad_request");
			assertThat(noMessage.get("message").asString()).contains("'message'");
			JsonNode badDelay = post(client, RUNS, Map.of("sessionId", "s", "message", "hi", "delay", "soon"),
					HttpStatus.BAD_REQUEST);
			assertThat(badDelay.get("message").asString()).contains("'delay'");
			JsonNode badTemperature = post(client, RUNS, Map.of("sessionId", "s", "message", "hi", "temperature", 9),
					HttpStatus.BAD_REQUEST);
			assertThat(badTemperature.get("message").asString()).contains("'temperature'");
			assertThat(get(client, RUNS + "/no-such-run", HttpStatus.NOT_FOUND).get("error").asString())
				.isEqualTo("not_found");
			JsonNode later = post(client, RUNS,
					Map.of("sessionId", "s3", "message", "Delete /x", "runAt", Instant.now().plusSeconds(3600).toString()),
					HttpStatus.ACCEPTED);
			String id = later.get("id").asString();
			JsonNode notInterrupted = post(client, RUNS + "/" + id + "/resume", Map.of("decisions", Map.of()),
					HttpStatus.CONFLICT);
			assertThat(notInterrupted.get("error").asString()).isEqualTo("run_conflict");
			JsonNode badDecision = post(client, RUNS + "/" + id + "/resume",
					Map.of("decisions", Map.of("call-1", Map.of("type", "maybe"))), HttpStatus.BAD_REQUEST);
			assertThat(badDecision.get("message").asString()).contains("'decisions.call-1.type'");
			// no workflow executor: the run of an agent is not found as a workflow's
			assertThat(get(client, "/workflows/assistant/runs/" + id, HttpStatus.NOT_FOUND).get("error").asString())
				.isEqualTo("not_found");
			assertThat(get(client, RUNS, HttpStatus.BAD_REQUEST).get("message").asString()).contains("'sessionId'");
		}));
	}

	@Test
	void idempotencyKeyQueuesOneRun() {
		this.contextRunner.run(withClient((client, tools) -> {
			Map<String, Object> body = Map.of("sessionId", "s4", "message", "Delete /y", "delay", "PT1H",
					"idempotencyKey", "k-1");
			String first = post(client, RUNS, body, HttpStatus.ACCEPTED).get("id").asString();
			String second = post(client, RUNS, body, HttpStatus.ACCEPTED).get("id").asString();
			assertThat(second).isEqualTo(first);
		}));
	}

	@Test
	void idempotencyKeyOfAnAnonymousCallerIsKeptPerSessionAndConflictsWithAnotherRequest() {
		this.contextRunner.run(withClient((client, tools) -> {
			Map<String, Object> body = Map.of("sessionId", "s6", "message", "Delete /y", "delay", "PT1H",
					"idempotencyKey", "k-2");
			String first = post(client, RUNS, body, HttpStatus.ACCEPTED).get("id").asString();
			String otherSession = post(client, RUNS, Map.of("sessionId", "s7", "message", "Delete /y", "delay", "PT1H",
					"idempotencyKey", "k-2"), HttpStatus.ACCEPTED).get("id").asString();
			assertThat(otherSession).isNotEqualTo(first);
			JsonNode conflict = post(client, RUNS, Map.of("sessionId", "s6", "message", "Delete /z", "delay", "PT1H",
					"idempotencyKey", "k-2"), HttpStatus.CONFLICT);
			assertThat(conflict.get("error").asString()).isEqualTo("idempotency_conflict");
			assertThat(conflict.get("message").asString()).contains("different request");
			assertThat(get(client, RUNS + "?sessionId=s6", HttpStatus.OK)).hasSize(1);
		}));
	}

	private static List<String> ids(int count) {
		return java.util.stream.IntStream.rangeClosed(1, count).mapToObj(String::valueOf).toList();
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(
			BiConsumer<WebTestClient, MiddlewareTestTools> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			test.accept(RunRoutes.client(context),
					context.getBean(MiddlewareTestTools.class));
		};
	}

}
