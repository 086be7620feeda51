package dev.agcore.autoconfigure.web.a2a;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link A2aServerAutoConfiguration}: the Agent Cards, the JSON-RPC methods,
 * approvals as input-required tasks, cancellation, the JSON-RPC errors and the tasks'
 * owners.
 */
class A2aServerAutoConfigurationTests {

	private static final String ENDPOINT = "http://agents.test/a2a/assistant";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, A2aServerAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class)
		.withBean("scripted", ChatModel.class, A2aTestModels::scripted)
		// the caller is the X-User header's
		.withBean(PrincipalResolver.class, () -> (exchange) -> Mono
			.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-User"))
			.map(AgentPrincipal::of))
		.withPropertyValues("agent.untrusted-content.enabled=false", "agent.web.a2a.enabled=true",
				"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=get_weather,delete_file",
				"agent.agents.assistant.description=Deletes files and knows the weather",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone",
				"agent.agents.helper.model=scripted", "agent.agents.helper.tools=");

	@Test
	void isOffByDefault() {
		this.contextRunner.withPropertyValues("agent.web.a2a.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("agentA2aRouterFunction"));
	}

	@Test
	void withoutTheSdkStartupSaysWhatToAdd() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.a2a."))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.web.a2a.enabled=true needs the A2A SDK's protocol types"));
	}

	@Test
	void agentCardShowsTheEndpointSkillsAndStreaming() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode card = get(client, ENDPOINT + "/.well-known/agent-card.json", HttpStatus.OK);
			assertThat(card.path("name").asString()).isEqualTo("assistant");
			assertThat(card.path("description").asString()).isEqualTo("Deletes files and knows the weather");
			assertThat(card.path("url").asString()).isEqualTo(ENDPOINT);
			assertThat(card.path("protocolVersion").asString()).isEqualTo("0.3.0");
			assertThat(card.path("preferredTransport").asString()).isEqualTo("JSONRPC");
			assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
			assertThat(card.path("capabilities").path("pushNotifications").asBoolean()).isFalse();
			assertThat(card.path("skills").values()).extracting((skill) -> skill.path("id").asString())
				.containsExactlyInAnyOrder("get_weather", "delete_file");
			assertThat(card.path("skills").values()).extracting((skill) -> skill.path("description").asString())
				.contains("Delete a file");
			// an agent without tools has one skill: itself
			JsonNode helper = get(client, "http://agents.test/a2a/helper/.well-known/agent-card.json", HttpStatus.OK);
			assertThat(helper.path("skills").values()).extracting((skill) -> skill.path("id").asString())
				.containsExactly("helper");
			assertThat(helper.path("description").asString()).isEqualTo("The agent helper");
		}));
	}

	@Test
	void publicUrlAndBasePathMakeTheCardsUrl() {
		this.contextRunner
			.withPropertyValues("agent.web.a2a.public-url=https://agents.example.com/",
					"agent.web.a2a.base-path=/interop/a2a/")
			.run(withClient((client, tools) -> assertThat(
					get(client, "http://internal:8080/interop/a2a/assistant/.well-known/agent-card.json", HttpStatus.OK)
						.path("url")
						.asString())
				.isEqualTo("https://agents.example.com/interop/a2a/assistant")));
	}

	@Test
	void onlyTheListedAgentsAreServed() {
		this.contextRunner.withPropertyValues("agent.web.a2a.agents=assistant").run(withClient((client, tools) -> {
			get(client, ENDPOINT + "/.well-known/agent-card.json", HttpStatus.OK);
			JsonNode card = get(client, "http://agents.test/a2a/helper/.well-known/agent-card.json",
					HttpStatus.NOT_FOUND);
			assertThat(card.path("error").path("message").asString()).contains("helper");
			JsonNode rpc = json(client.post()
				.uri("http://agents.test/a2a/helper")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(request("tasks/get", "{\"id\": \"t1\"}"))
				.exchange()
				.expectStatus()
				.isNotFound()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
			assertThat(rpc.path("error").path("code").asInt()).isEqualTo(-32600);
		}));
	}

	@Test
	void unknownAgentInTheListFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.web.a2a.agents=assistant,nobody")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.web.a2a.agents names 'nobody'"));
	}

	@Test
	void messageSendRunsATurnAndTasksGetReadsIt() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode sent = rpc(client, null, "message/send", message("Weather in Lima", null, null));
			assertThat(sent.path("id").asInt()).isEqualTo(1);
			JsonNode task = sent.path("result");
			assertThat(task.path("kind").asString()).isEqualTo("task");
			assertThat(task.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(task.path("artifacts").get(0).path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Sunny in Lima");
			assertThat(task.path("contextId").asString()).isNotBlank();
			JsonNode read = rpc(client, null, "tasks/get", "{\"id\": \"" + task.path("id").asString() + "\"}")
				.path("result");
			assertThat(read.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(read.path("history").values()).extracting((message) -> message.path("role").asString())
				.containsExactly("user", "agent");
			JsonNode last = rpc(client, null, "tasks/get",
					"{\"id\": \"" + task.path("id").asString() + "\", \"historyLength\": 1}")
				.path("result");
			assertThat(last.path("history").values()).extracting((message) -> message.path("role").asString())
				.containsExactly("agent");
			// the context is the session: the next task continues the conversation
			String contextId = task.path("contextId").asString();
			JsonNode next = rpc(client, null, "message/send", message("Hello again", contextId, null)).path("result");
			assertThat(next.path("contextId").asString()).isEqualTo(contextId);
			assertThat(next.path("id").asString()).isNotEqualTo(task.path("id").asString());
		}));
	}

	@Test
	void approvalIsAnInputRequiredTaskThatAFollowUpMessageApproves() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode paused = rpc(client, null, "message/send", message("Delete /tmp/a", null, null)).path("result");
			assertThat(paused.path("status").path("state").asString()).isEqualTo("input-required");
			JsonNode pending = paused.path("status").path("message").path("parts").get(1).path("data")
				.path("pendingToolCalls").get(0);
			assertThat(pending.path("name").asString()).isEqualTo("delete_file");
			assertThat(pending.path("reason").asString()).isEqualTo("Deleting cannot be undone");
			assertThat(tools.calls()).isEmpty();
			String taskId = paused.path("id").asString();

			JsonNode unclear = rpc(client, null, "message/send", message("maybe later", null, taskId));
			assertThat(unclear.path("error").path("code").asInt()).isEqualTo(-32602);
			assertThat(unclear.path("error").path("message").asString()).contains("approve");

			JsonNode done = rpc(client, null, "message/send", message("approve", null, taskId)).path("result");
			assertThat(done.path("id").asString()).isEqualTo(taskId);
			assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(done.path("artifacts").get(0).path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Deleted /tmp/a");
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/a");

			JsonNode again = rpc(client, null, "message/send", message("approve", null, taskId));
			assertThat(again.path("error").path("code").asInt()).isEqualTo(-32602);
			assertThat(again.path("error").path("message").asString()).contains("is completed");
		}));
	}

	@Test
	void decisionsByToolCallIdInADataPart() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode paused = rpc(client, null, "message/send", message("Delete /tmp/b", null, null)).path("result");
			String callId = paused.path("status").path("message").path("parts").get(1).path("data")
				.path("pendingToolCalls").get(0).path("id").asString();
			String decision = "{\"message\": {\"kind\": \"message\", \"role\": \"user\", \"messageId\": \"m-2\", "
					+ "\"taskId\": \"" + paused.path("id").asString() + "\", \"parts\": [{\"kind\": \"data\", "
					+ "\"data\": {\"decisions\": {\"" + callId + "\": {\"type\": \"reject\", \"reason\": \"no\"}}}}]}}";
			JsonNode done = rpc(client, null, "message/send", decision).path("result");
			assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(tools.calls()).isEmpty();
		}));
	}

	@Test
	void cancelingAnInputRequiredTaskRejectsItsCallsAndLeavesTheSessionUsable() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode paused = rpc(client, null, "message/send", message("Delete /tmp/c", null, null)).path("result");
			String taskId = paused.path("id").asString();
			JsonNode canceled = rpc(client, null, "tasks/cancel", "{\"id\": \"" + taskId + "\"}").path("result");
			assertThat(canceled.path("status").path("state").asString()).isEqualTo("canceled");
			assertThat(rpc(client, null, "tasks/get", "{\"id\": \"" + taskId + "\"}").path("result")
				.path("status").path("state").asString()).isEqualTo("canceled");
			JsonNode again = rpc(client, null, "tasks/cancel", "{\"id\": \"" + taskId + "\"}");
			assertThat(again.path("error").path("code").asInt()).isEqualTo(-32002);
			assertThat(tools.calls()).isEmpty();
			JsonNode next = rpc(client, null, "message/send",
					message("Hello", paused.path("contextId").asString(), null)).path("result");
			assertThat(next.path("status").path("state").asString()).isEqualTo("completed");
		}));
	}

	@Test
	void messageStreamSendsTheTaskTheTextAndAFinalStatus() {
		this.contextRunner.run(withClient((client, tools) -> {
			List<JsonNode> results = stream(client, message("Weather in Quito", null, null));
			assertThat(results).extracting((result) -> result.path("kind").asString())
				.startsWith("task")
				.contains("artifact-update")
				.endsWith("status-update");
			JsonNode last = results.get(results.size() - 1);
			assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(last.path("final").asBoolean()).isTrue();
			JsonNode answer = results.get(results.size() - 2);
			assertThat(answer.path("artifact").path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Sunny in Quito");
			assertThat(answer.path("lastChunk").asBoolean()).isTrue();
		}));
	}

	@Test
	void aPausedTaskStreamsToInputRequiredAndItsApprovalStreamsToCompleted() {
		this.contextRunner.run(withClient((client, tools) -> {
			List<JsonNode> paused = stream(client, message("Delete /tmp/d", null, null));
			JsonNode waiting = paused.get(paused.size() - 1);
			assertThat(waiting.path("kind").asString()).isEqualTo("status-update");
			assertThat(waiting.path("status").path("state").asString()).isEqualTo("input-required");
			assertThat(waiting.path("final").asBoolean()).isTrue();
			List<JsonNode> resumed = stream(client, message("approve", null, waiting.path("taskId").asString()));
			assertThat(resumed.get(0).path("id").asString()).isEqualTo(waiting.path("taskId").asString());
			JsonNode last = resumed.get(resumed.size() - 1);
			assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
			assertThat(resumed.get(resumed.size() - 2).path("artifact").path("parts").get(0).path("text").asString())
				.isEqualTo("Done: Deleted /tmp/d");
			assertThat(tools.calls()).containsExactly("delete_file:/tmp/d");
		}));
	}

	@Test
	void malformedRequestsAreJsonRpcErrorsWithoutStackTraces() {
		this.contextRunner.run(withClient((client, tools) -> {
			assertError(post(client, null, "{"), -32700, "Invalid JSON");
			assertError(post(client, null, "[]"), -32600, "JSON-RPC 2.0 request object");
			assertError(post(client, null, ""), -32600, "JSON-RPC 2.0 request object");
			assertError(post(client, null, "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"tasks/get\"}"), -32600,
					"'jsonrpc' must be \"2.0\"");
			assertError(post(client, null, "{\"jsonrpc\": \"2.0\", \"id\": {}, \"method\": \"tasks/get\"}"), -32600,
					"'id' must be");
			assertError(rpc(client, null, "tasks/list", "{}"), -32601, "tasks/list");
			assertError(rpc(client, null, "message/send", "{}"), -32602, "params.message is required");
			assertError(rpc(client, null, "tasks/get", "[1]"), -32602, "'params' of tasks/get");
			assertError(rpc(client, null, "message/send", "{\"message\": {\"role\": 7}}"), -32602,
					"Invalid params of message/send");
			assertError(rpc(client, null, "tasks/get", "{\"id\": 7}"), -32602, "params.id is required");
			assertError(rpc(client, null, "tasks/get", "{\"id\": \"no-such-task\"}"), -32001, "no-such-task");
			assertError(rpc(client, null, "tasks/cancel", "{\"id\": \"no-such-task\"}"), -32001, "no-such-task");
			assertError(rpc(client, null, "tasks/pushNotificationConfig/set", "{}"), -32003, "");
			assertError(rpc(client, null, "tasks/resubscribe", "{\"id\": \"t\"}"), -32004, "tasks/get");
			String file = "{\"message\": {\"kind\": \"message\", \"role\": \"user\", \"messageId\": \"m\", \"parts\": "
					+ "[{\"kind\": \"file\", \"file\": {\"uri\": \"https://example.com/a.pdf\"}}]}}";
			assertError(rpc(client, null, "message/send", file), -32005, "file parts");
			assertError(rpc(client, null, "message/send", "{\"message\": {\"kind\": \"message\", \"role\": \"user\", "
					+ "\"messageId\": \"m\", \"parts\": [{\"kind\": \"text\", \"text\": \" \"}]}}"), -32602, "no text");
			// the request's id comes back with its error
			assertThat(rpc(client, null, "tasks/get", "{\"id\": \"x\"}").path("id").asInt()).isEqualTo(1);
		}));
	}

	@Test
	void aTaskOfAnotherPrincipalIsNotFound() {
		this.contextRunner.run(withClient((client, tools) -> {
			JsonNode task = rpc(client, "alice", "message/send", message("Hello", null, null)).path("result");
			String get = "{\"id\": \"" + task.path("id").asString() + "\"}";
			assertThat(rpc(client, "alice", "tasks/get", get).path("result").path("id").asString())
				.isEqualTo(task.path("id").asString());
			assertError(rpc(client, "bob", "tasks/get", get), -32001, "No task");
			assertError(rpc(client, null, "tasks/get", get), -32001, "No task");
			assertError(rpc(client, "bob", "tasks/cancel", get), -32001, "No task");
			// nor may bob continue alice's conversation
			assertError(rpc(client, "bob", "message/send",
					message("Hello", task.path("contextId").asString(), null)), -32602, "No context");
		}));
	}

	private static void assertError(JsonNode response, int code, String message) {
		assertThat(response.path("jsonrpc").asString()).isEqualTo("2.0");
		assertThat(response.has("result")).isFalse();
		assertThat(response.path("error").path("code").asInt()).as(response.toString()).isEqualTo(code);
		assertThat(response.path("error").path("message").asString()).as(response.toString()).contains(message);
		assertThat(response.toString()).doesNotContain("\tat ", "Exception");
	}

	static String message(String text, String contextId, String taskId) {
		return "{\"message\": {\"kind\": \"message\", \"role\": \"user\", \"messageId\": \"m-" + System.nanoTime()
				+ "\"" + ((contextId != null) ? ", \"contextId\": \"" + contextId + "\"" : "")
				+ ((taskId != null) ? ", \"taskId\": \"" + taskId + "\"" : "")
				+ ", \"parts\": [{\"kind\": \"text\", \"text\": \"" + text + "\"}]}}";
	}

	static String request(String method, String params) {
		return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + method + "\", \"params\": " + params + "}";
	}

	static JsonNode rpc(WebTestClient client, String user, String method, String params) {
		return post(client, user, request(method, params));
	}

	private static JsonNode post(WebTestClient client, String user, String body) {
		WebTestClient.RequestBodySpec spec = client.post().uri(ENDPOINT).contentType(MediaType.APPLICATION_JSON);
		if (user != null) {
			spec = spec.header("X-User", user);
		}
		return json(spec.bodyValue(body)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static JsonNode get(WebTestClient client, String uri, HttpStatus status) {
		return json(client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	// the results of a message/stream's events
	private static List<JsonNode> stream(WebTestClient client, String params) {
		List<ServerSentEvent<String>> events = client.post()
			.uri(ENDPOINT)
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.bodyValue(request("message/stream", params))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(TIMEOUT);
		assertThat(events).isNotEmpty();
		return events.stream().map((event) -> json(event.data()).path("result")).toList();
	}

	static JsonNode json(String body) {
		return AgentJson.mapper().readTree(body);
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(
			BiConsumer<WebTestClient, MiddlewareTestTools> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentA2aRouterFunction", RouterFunction.class);
			// a loaded machine may take seconds for a first turn
			test.accept(WebTestClient.bindToRouterFunction(router).configureClient().responseTimeout(TIMEOUT).build(),
					context.getBean(MiddlewareTestTools.class));
		};
	}

}
