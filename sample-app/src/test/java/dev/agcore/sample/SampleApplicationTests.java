package dev.agcore.sample;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app, started as it is run, in demo mode (the build clears OPENAI_API_KEY).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class SampleApplicationTests {

	@Autowired
	private WebTestClient client;

	@Test
	void listsTheAssistantOnTheScriptedModel() {
		JsonNode agents = SampleHttp.get(this.client, "/agents");
		assertThat(agents.valueStream().map((agent) -> agent.get("name").asString())).containsExactly("assistant",
				"planner", "researcher", "librarian");
		assertThat(agents.get(0).get("provider").asString()).isEqualTo("scripted");
		assertThat(agents.get(0).get("tools").valueStream().map(JsonNode::asString))
			.containsExactly("get_weather", "convert_units", "get_order_status", "cancel_order", "retrieve");
		assertThat(agents.valueStream().map((agent) -> agent.get("provider").asString())).as("all are in demo mode")
			.containsOnly("scripted");
	}

	@Test
	void plannerStreamsItsPlanAndRunsOneStepPerPart() {
		List<ServerSentEvent<String>> events = this.client.post()
			.uri("/agents/planner/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", "plan-1", "message",
					"Where is order A-1001 and what is the weather in Paris?"))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(events).extracting(ServerSentEvent::event)
			.containsSubsequence("plan_created", "step_started", "tool_call", "step_completed", "step_started",
					"tool_call", "step_completed", "completed");
		assertThat(events).filteredOn((event) -> "tool_call".equals(event.event()))
			.extracting(ServerSentEvent::data)
			.satisfiesExactly((first) -> assertThat(first).contains("get_order_status"),
					(second) -> assertThat(second).contains("get_weather"));
	}

	@Test
	void returnRequestWorkflowWaitsForApprovalAndSkipsFinishedTasksWhenResumed() {
		JsonNode run = SampleHttp.post(this.client, "/workflows/return-request/runs",
				Map.of("input", Map.of("orderId", "A-1001", "reason", "arrived broken")), 202);
		String uri = "/workflows/return-request/runs/" + run.get("id").asString();
		JsonNode interrupted = awaitStatus(uri, "interrupted");
		assertThat(interrupted.at("/result/refund/amount").asDouble()).isEqualTo(30.0);
		SampleHttp.post(this.client, uri + "/resume", Map.of("resume", Map.of("approved", true)), 202);
		JsonNode completed = awaitStatus(uri, "completed");
		assertThat(completed.at("/result/status").asString()).isEqualTo("refunded");
		List<ServerSentEvent<String>> events = this.client.get()
			.uri(uri + "/events")
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(events).filteredOn((event) -> "task_completed".equals(event.event()))
			.extracting(ServerSentEvent::data)
			.filteredOn((data) -> data.contains("\"cached\":true"))
			.hasSize(2);
		JsonNode refused = SampleHttp.post(this.client, "/workflows/return-request/runs", Map.of("input", 5), 400);
		assertThat(refused.get("message").asString()).contains("return-request");
	}


	private JsonNode awaitStatus(String uri, String status) {
		long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		JsonNode run = json(this.client.get().uri(uri).exchange().expectBody(String.class).returnResult().getResponseBody());
		while (!run.get("status").asString().equals(status)) {
			assertThat(System.nanoTime()).as("run to be %s, is %s", status, run).isLessThan(end);
			java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
			run = json(this.client.get().uri(uri).exchange().expectBody(String.class).returnResult().getResponseBody());
		}
		return run;
	}

	@Test
	void invokeAnswersWithTheWeatherTool() {
		JsonNode result = json(this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", "weather", "message", "What's the weather in Paris?"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
		assertThat(result.get("status").asString()).isEqualTo("completed");
		JsonNode toolCall = result.get("toolCalls").get(0);
		assertThat(toolCall.get("name").asString()).isEqualTo("get_weather");
		assertThat(json(toolCall.get("arguments").asString()).get("city").asString()).isEqualTo("Paris");
		assertThat(toolCall.get("result").asString()).isEqualTo("Paris: 18 °C, partly cloudy, wind 10 km/h");
		assertThat(result.get("output").asString()).contains("Paris: 18 °C, partly cloudy");
	}

	@Test
	void streamEmitsToolCallToolResultTextAndCompleted() {
		List<ServerSentEvent<String>> events = this.client.post()
			.uri("/agents/assistant/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", "convert", "message", "Convert 10 km to miles"))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(events).isNotNull();
		List<String> names = events.stream().map(ServerSentEvent::event).filter((name) -> !"usage".equals(name)).toList();
		assertThat(names.subList(0, 2)).containsExactly("tool_call", "tool_result");
		assertThat(names.subList(2, names.size() - 1)).isNotEmpty().containsOnly("text");
		assertThat(names).last().isEqualTo("completed");
		ServerSentEvent<String> toolResult = events.stream()
			.filter((event) -> "tool_result".equals(event.event()))
			.findFirst()
			.orElseThrow();
		assertThat(json(toolResult.data()).get("result").asString()).isEqualTo("10 km = 6.21 mi");
		JsonNode completed = json(events.get(events.size() - 1).data());
		assertThat(completed.get("output").asString()).contains("10 km = 6.21 mi");
	}

	@Test
	void toolCallsShowUpInActuatorMetrics() {
		this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", "order", "message", "Where is order A-1001?"))
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode metric = SampleHttp.get(this.client, "/actuator/metrics/agent.tool.calls?tag=tool:get_order_status");
		assertThat(metric.get("name").asString()).isEqualTo("agent.tool.calls");
		JsonNode count = metric.get("measurements").valueStream()
			.filter((measurement) -> "COUNT".equals(measurement.get("statistic").asString()))
			.findFirst()
			.orElseThrow();
		assertThat(count.get("value").asDouble()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void cancellingAnOrderWaitsForApprovalAndResumes() {
		JsonNode paused = SampleHttp.post(this.client, "/agents/assistant/invoke",
				Map.of("sessionId", "cancel", "message", "Please cancel order A-1002"));
		assertThat(paused.get("status").asString()).isEqualTo("interrupted");
		JsonNode pending = paused.get("pendingToolCalls").get(0);
		assertThat(pending.get("name").asString()).isEqualTo("cancel_order");
		// the id the README's example uses
		assertThat(pending.get("id").asString()).isEqualTo("call_demo_2");
		assertThat(pending.get("reason").asString()).isEqualTo("Cancelling an order cannot be undone");
		JsonNode resumed = SampleHttp.post(this.client, "/agents/assistant/sessions/cancel/resume",
				Map.of("decisions", Map.of(pending.get("id").asString(), Map.of("type", "approve"))));
		assertThat(resumed.get("status").asString()).isEqualTo("completed");
		assertThat(resumed.get("output").asString()).isEqualTo("Here is what I found: Order A-1002 is cancelled.");
	}

	@Test
	void policyQuestionsAreAnsweredFromTheKnowledgeFolder() {
		JsonNode result = SampleHttp.post(this.client, "/agents/assistant/invoke",
				Map.of("sessionId", "policy", "message", "What is your return policy?"));
		assertThat(result.get("toolCalls").get(0).get("name").asString()).isEqualTo("retrieve");
		assertThat(result.get("output").asString()).startsWith("Here is what I found: Returns and refunds: ")
			.contains("within 30 days");
	}

	@Test
	void todaysDateIsInThePromptThroughAnAnnotatedMiddlewareBean() {
		JsonNode result = SampleHttp.post(this.client, "/agents/assistant/invoke", Map.of("sessionId", "date", "message", "What day is it?"));
		assertThat(result.get("output").asString()).isEqualTo("(demo) Today is Sunday, 15 June 2025.");
		this.client.get().uri("/actuator/metrics/agent.hook.events").exchange().expectStatus().isOk();
	}

	@Test
	void healthIsExposedWithTheAgentsStores() {
		this.client.get().uri("/actuator/health").exchange().expectStatus().isOk();
		JsonNode agents = SampleHttp.get(this.client, "/actuator/health/agents");
		assertThat(agents.get("status").asString()).isEqualTo("UP");
		assertThat(agents.at("/components/stores/components").propertyNames()).contains("conversations", "runs",
				"checkpoints");
	}


	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class FixedClock {

		@Bean
		Clock clock() {
			return Clock.fixed(Instant.parse("2025-06-15T10:00:00Z"), ZoneOffset.UTC);
		}

	}

}
