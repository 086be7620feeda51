package dev.agcore.autoconfigure.memory.redis;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances on one Redis: a conversation started on one continues on
 * the other, and a turn paused for approval on one is resumed on the other.
 */
class RedisMemoryTwoInstancesTests {

	private static final String PREFIX = "agcore-test:redis-two-instances:" + ProcessHandle.current().pid() + ":";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class,
				ChatModelAutoConfiguration.class, ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class, MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentWebAutoConfiguration.class))
		.withBean("tools", MiddlewareTestTools.class)
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering(RedisMemoryTwoInstancesTests::answer))
		.withPropertyValues("spring.data.redis.host=" + RedisAvailability.HOST,
				"spring.data.redis.port=" + RedisAvailability.PORT, "agent.memory.store=redis",
				"agent.memory.redis.key-prefix=" + PREFIX, "agent.web.enabled=true",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone");

	@BeforeAll
	static void requireRedis() {
		RedisAvailability.require();
	}

	@AfterAll
	static void deleteKeys() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + RedisAvailability.HOST,
					"spring.data.redis.port=" + RedisAvailability.PORT)
			.run((context) -> {
				ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
				redis.scan(ScanOptions.scanOptions().match(PREFIX + "*").build())
					.flatMap(redis::delete)
					.then()
					.block(Duration.ofSeconds(10));
			});
	}

	@Test
	void aConversationStartedOnOneInstanceContinuesOnTheOther() {
		String session = "s-" + UUID.randomUUID();
		this.contextRunner.run((one) -> this.contextRunner.run((two) -> {
			JsonNode first = invoke(client(one), session, "Hello", HttpStatus.OK);
			assertThat(first.get("output").asString()).isEqualTo("I have seen 1 message(s)");
			JsonNode second = invoke(client(two), session, "Again", HttpStatus.OK);
			// the second instance's model saw the first turn: user, assistant, then the new question
			assertThat(second.get("output").asString()).isEqualTo("I have seen 3 message(s)");
			JsonNode messages = get(client(one), "/agents/assistant/sessions/" + session + "/messages");
			assertThat(messages.valueStream().map((message) -> message.get("text").asString()))
				.containsExactly("Hello", "I have seen 1 message(s)", "Again", "I have seen 3 message(s)");
		}));
	}

	@Test
	void aTurnPausedOnOneInstanceIsResumedOnTheOther() {
		String session = "s-" + UUID.randomUUID();
		String resume = "/agents/assistant/sessions/" + session + "/resume";
		Map<String, Object> approve = Map.of("decisions", Map.of("call-1", Map.of("type", "approve")));
		this.contextRunner.run((one) -> this.contextRunner.run((two) -> {
			JsonNode paused = invoke(client(one), session, "Delete /tmp/a", HttpStatus.OK);
			assertThat(paused.get("status").asString()).isEqualTo("interrupted");
			// a new message to the session is refused on either instance while it waits
			invoke(client(two), session, "Hello", HttpStatus.CONFLICT);

			JsonNode completed = post(client(two), resume, approve, HttpStatus.OK);
			assertThat(completed.get("status").asString()).isEqualTo("completed");
			assertThat(completed.get("output").asString()).isEqualTo("Done: Deleted /tmp/a");
			assertThat(two.getBean(MiddlewareTestTools.class).calls()).containsExactly("delete_file:/tmp/a");
			assertThat(one.getBean(MiddlewareTestTools.class).calls()).isEmpty();
			// resumed once: the first instance finds nothing left to decide
			post(client(one), resume, approve, HttpStatus.CONFLICT);
			JsonNode messages = get(client(one), "/agents/assistant/sessions/" + session + "/messages");
			assertThat(messages.valueStream().map((message) -> message.get("role").asString()))
				.containsExactly("user", "assistant", "tool", "assistant");
		}));
	}

	/** Deletes the path of a "Delete" question and reports the result; otherwise counts the messages seen. */
	private static ChatResponse answer(ChatRequest request) {
		Message last = request.messages().get(request.messages().size() - 1);
		if (last instanceof ToolResultMessage result) {
			return ScriptedChatModel.text("Done: " + result.text());
		}
		String text = ((UserMessage) last).text();
		if (text.startsWith("Delete ")) {
			String path = text.substring("Delete ".length());
			return ScriptedChatModel.toolCalls(new ToolCall("call-1", "delete_file", "{\"path\":\"" + path + "\"}"));
		}
		long seen = request.messages().stream().filter((message) -> !(message instanceof SystemMessage))
			.count();
		return ScriptedChatModel.text("I have seen " + seen + " message(s)");
	}

	private static WebTestClient client(AssertableReactiveWebApplicationContext context) {
		assertThat(context).hasNotFailed();
		return WebTestClient.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class)).build();
	}

	private static JsonNode invoke(WebTestClient client, String session, String message, HttpStatus status) {
		return post(client, "/agents/assistant/invoke", Map.of("sessionId", session, "message", message), status);
	}

	private static JsonNode post(WebTestClient client, String uri, Object body, HttpStatus status) {
		return AgentJson.mapper()
			.readTree(client.post()
				.uri(uri)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body)
				.exchange()
				.expectStatus()
				.isEqualTo(status)
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
	}

	private static JsonNode get(WebTestClient client, String uri) {
		return AgentJson.mapper()
			.readTree(client.get()
				.uri(uri)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
	}

}
