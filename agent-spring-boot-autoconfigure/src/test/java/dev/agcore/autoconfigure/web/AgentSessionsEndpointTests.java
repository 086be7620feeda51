package dev.agcore.autoconfigure.web;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.ConversationConflictException;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.SessionMemory;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.testing.ScriptedChatModel;
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
 * The session routes, user ids on the endpoint, memory tools from properties, and how a
 * conversation store that conflicts or is down is answered.
 */
class AgentSessionsEndpointTests {

	private static final String SESSIONS = "/agents/-/sessions";

	private final ReactiveWebApplicationContextRunner securedRunner = new ReactiveWebApplicationContextRunner()
		// what the model is sent and echoes, unmarked: untrusted-content marking has its own tests
		.withPropertyValues("agent.untrusted-content.enabled=false")
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class, MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.system-prompt=Help.");

	/** Without Spring Security, as the demo: a user id is a label the caller chooses. */
	private final ReactiveWebApplicationContextRunner contextRunner = this.securedRunner
		.withClassLoader(new FilteredClassLoader("org.springframework.security"));

	@Test
	void withSpringSecurityAnAnonymousCallerCanNeitherSpendListNorPlantForAUser() {
		this.securedRunner.run(withClient(null, (client) -> {
			invoke(client, "anon-1", "bob", HttpStatus.OK);
			client.get().uri(SESSIONS + "?userId=bob").exchange()
				.expectStatus()
				.isBadRequest()
				.expectBody(String.class)
				.value((body) -> assertThat(body).contains("Authenticate to list your sessions"));
		}));
		this.securedRunner.run((context) -> {
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			invoke(client(router, null), "anon-2", "bob", HttpStatus.OK);
			// nothing planted in bob's list: the anonymous turn was the session's, not bob's
			assertThat(context.getBean(AgentSessions.class).list("bob", 0, 10).block(Duration.ofSeconds(10)))
				.isEmpty();
		});
	}

	@Test
	void sessionsOfAUserAreListedNewestFirstAndDeleted() {
		this.contextRunner.run(withClient(null, (client) -> {
			invoke(client, "s1", "alice", HttpStatus.OK);
			invoke(client, "s2", "alice", HttpStatus.OK);
			invoke(client, "s3", "bob", HttpStatus.OK);
			invoke(client, "s4", null, HttpStatus.OK);

			JsonNode alice = get(client, SESSIONS + "?userId=alice", HttpStatus.OK);
			assertThat(alice.valueStream().map((info) -> info.get("sessionId").asString())).containsExactly("s2", "s1");
			assertThat(alice.get(0).get("agentName").asString()).isEqualTo("assistant");
			assertThat(alice.get(0).get("updatedAt").asString()).isNotBlank();
			assertThat(get(client, SESSIONS + "?userId=alice&offset=1&limit=5", HttpStatus.OK).valueStream()
				.map((info) -> info.get("sessionId").asString())).containsExactly("s1");

			client.delete().uri(SESSIONS + "/s1?userId=alice").exchange().expectStatus().isNoContent();
			client.delete().uri(SESSIONS + "/s1?userId=alice").exchange().expectStatus().isNoContent();

			assertThat(get(client, SESSIONS + "?userId=alice", HttpStatus.OK).valueStream()
				.map((info) -> info.get("sessionId").asString())).containsExactly("s2");
			assertThat(get(client, "/agents/assistant/sessions/s1/messages", HttpStatus.OK)).isEmpty();
			assertThat(get(client, "/agents/assistant/sessions/s2/messages", HttpStatus.OK)).hasSize(2);
		}));
	}

	@Test
	void listingNeedsAUserAndValidPaging() {
		this.contextRunner.run(withClient(null, (client) -> {
			JsonNode missing = get(client, SESSIONS, HttpStatus.BAD_REQUEST);
			assertThat(missing.get("error").asString()).isEqualTo("bad_request");
			assertThat(missing.get("message").asString()).contains("'userId' is required");
			assertThat(get(client, SESSIONS + "?userId=a&limit=0", HttpStatus.BAD_REQUEST).get("message").asString())
				.contains("'limit' must be between 1 and 1000");
			assertThat(get(client, SESSIONS + "?userId=a&offset=x", HttpStatus.BAD_REQUEST).get("message").asString())
				.contains("'offset' must be an integer");
			assertThat(get(client, SESSIONS + "?userId=nobody", HttpStatus.OK)).isEmpty();
		}));
	}

	@Test
	void theAuthenticatedPrincipalWinsOverTheClaimedUserId() {
		this.contextRunner.run(withClient("bob", (client) -> {
			invoke(client, "s1", "alice", HttpStatus.OK);

			assertThat(get(client, SESSIONS + "?userId=alice", HttpStatus.OK).valueStream()
				.map((info) -> info.get("sessionId").asString())).containsExactly("s1");
			assertThat(client.get().uri(SESSIONS).exchange().expectStatus().isOk().expectBody(String.class)
				.returnResult().getResponseBody()).contains("\"sessionId\":\"s1\"");
		}));
		this.contextRunner.run((context) -> {
			AgentSessions sessions = context.getBean(AgentSessions.class);
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			WebTestClient bob = client(router, "bob");
			invoke(bob, "s1", "alice", HttpStatus.OK);
			assertThat(sessions.list("alice", 0, 10).block(Duration.ofSeconds(5))).isEmpty();
			assertThat(sessions.list("bob", 0, 10).block(Duration.ofSeconds(5))).hasSize(1);
		});
	}

	@Test
	void memoryToolsAreGivenByProperties() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.memory.tools.enabled=true",
					"agent.agents.assistant.memory.tools.scope=session",
					"agent.agents.assistant.memory.session-context=false")
			.withBean(Retriever.class, () -> (request) -> Mono
				.just(List.of(new ScoredDocument(Document.of("d1", "Invoices are due in 30 days"), 1.0))))
			.run(withClient(null, (client) -> {
				JsonNode tools = get(client, "/agents/assistant/tools", HttpStatus.OK);
				assertThat(tools.valueStream().map((tool) -> tool.get("name").asString())).contains("remember",
						"recall", "retrieve");
			}));
		this.contextRunner.run(withClient(null, (client) -> {
			JsonNode tools = get(client, "/agents/assistant/tools", HttpStatus.OK);
			assertThat(tools.valueStream().map((tool) -> tool.get("name").asString())).doesNotContain("remember",
					"recall", "retrieve");
		}));
		this.contextRunner.withPropertyValues("agent.agents.assistant.memory.tools.scope=galaxy")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void rememberedFactsOfAUserReachTheStoreThroughTheModelsToolCall() {
		ChatModel remembering = ScriptedChatModel.answering((request) -> {
			if (request.messages().get(request.messages().size() - 1) instanceof ToolResultMessage result) {
				return ScriptedChatModel.text(result.text());
			}
			return ScriptedChatModel
				.toolCalls(new ToolCall("c1", "remember", "{\"key\":\"language\",\"value\":\"Dutch\"}"));
		});
		this.contextRunner.withAllowBeanDefinitionOverriding(true)
			.withBean("scripted", ChatModel.class, () -> remembering)
			.withPropertyValues("agent.agents.assistant.memory.tools.enabled=true")
			.run(withClient(null, (client) -> {
				JsonNode alice = invoke(client, "s1", "alice", HttpStatus.OK);
				assertThat(alice.get("output").asString()).isEqualTo("Remembered 'language'.");
				JsonNode nobody = invoke(client, "s2", null, HttpStatus.OK);
				assertThat(nobody.get("output").asString()).contains("names no user");
			}));
		this.contextRunner.withAllowBeanDefinitionOverriding(true)
			.withBean("scripted", ChatModel.class, () -> remembering)
			.withPropertyValues("agent.agents.assistant.memory.tools.enabled=true")
			.run((context) -> {
				RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
				invoke(client(router, null), "s1", "alice", HttpStatus.OK);
				assertThat(LongTermStore.of(context.getBean(KeyValueStore.class)).get("user:alice", "language",
						String.class)).contains("Dutch");
			});
	}

	@Test
	void sessionContextPropertySwitchesTheBlockOff() {
		for (boolean enabled : new boolean[] { true, false }) {
			ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));
			this.contextRunner.withAllowBeanDefinitionOverriding(true)
				.withBean("scripted", ChatModel.class, () -> model)
				.withPropertyValues("agent.agents.assistant.memory.session-context=" + enabled)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					SessionMemory.of(context.getBean(KeyValueStore.class), "s1").put("city", "Oslo");
					invoke(client(context.getBean("agentRouterFunction", RouterFunction.class), null), "s1", null,
							HttpStatus.OK);
					String prompt = model.requests().get(0).messages().get(0).text();
					if (enabled) {
						assertThat(prompt).isEqualTo("Help.\n\n<session-context>\ncity: Oslo\n</session-context>");
					}
					else {
						assertThat(prompt).isEqualTo("Help.");
					}
				});
		}
	}

	@Test
	void aStoreThatIsDownAnswers503WithoutItsAddressOnInvokeAndStream() {
		ConversationStore down = failing("load", new MemoryUnavailableException(
				"Cannot reach PostgreSQL at db.internal:5432", new ConnectException("db.internal:5432")));
		this.contextRunner.withBean(ConversationStore.class, () -> down).run(withClient(null, (client) -> {
			JsonNode body = invoke(client, "s1", null, HttpStatus.SERVICE_UNAVAILABLE);
			assertThat(body.get("error").asString()).isEqualTo("memory_unavailable");
			assertThat(body.get("message").asString()).contains("unavailable").doesNotContain("db.internal", "5432");

			ServerSentEvent<String> error = lastEvent(client, "s1");
			assertThat(error.event()).isEqualTo("error");
			assertThat(error.data()).contains("unavailable").doesNotContain("db.internal", "5432");
		}));
	}

	@Test
	void aConflictingHistoryAnswers409OnInvokeAndStream() {
		ConversationStore conflicting = failing("append", new ConversationConflictException("s1", 0));
		this.contextRunner.withBean(ConversationStore.class, () -> conflicting).run(withClient(null, (client) -> {
			JsonNode body = invoke(client, "s1", null, HttpStatus.CONFLICT);
			assertThat(body.get("error").asString()).isEqualTo("conversation_conflict");
			assertThat(body.get("message").asString()).contains("s1");

			ServerSentEvent<String> error = lastEvent(client, "s1");
			assertThat(error.event()).isEqualTo("error");
			assertThat(error.data()).contains("\"error\":\"conversation_conflict\"").doesNotContain("Exception");
		}));
	}

	/** An in-memory store whose method of a name fails with an exception. */
	private static ConversationStore failing(String method, RuntimeException failure) {
		InMemoryConversationStore delegate = new InMemoryConversationStore();
		return (ConversationStore) Proxy.newProxyInstance(AgentSessionsEndpointTests.class.getClassLoader(),
				new Class<?>[] { ConversationStore.class }, (proxy, called, arguments) -> {
					if (called.getName().equals(method)) {
						return Mono.error(failure);
					}
					try {
						return called.invoke(delegate, arguments);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

	private static JsonNode invoke(WebTestClient client, String sessionId, String userId, HttpStatus status) {
		Map<String, String> body = (userId != null) ? Map.of("sessionId", sessionId, "message", "hi", "userId", userId)
				: Map.of("sessionId", sessionId, "message", "hi");
		return json(client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static ServerSentEvent<String> lastEvent(WebTestClient client, String sessionId) {
		List<ServerSentEvent<String>> events = client.post()
			.uri("/agents/assistant/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", sessionId, "message", "hi"))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(events).isNotEmpty();
		return events.get(events.size() - 1);
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

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static WebTestClient client(RouterFunction<?> router, String principal) {
		WebTestClient.RouterFunctionSpec spec = WebTestClient.bindToRouterFunction(router);
		if (principal != null) {
			spec.webFilter((exchange, chain) -> chain.filter(exchange.mutate().principal(Mono.just(() -> principal)).build()));
		}
		return spec.build();
	}

	private static ContextConsumer<AssertableReactiveWebApplicationContext> withClient(String principal,
			Consumer<WebTestClient> test) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			test.accept(client(router, principal));
		};
	}

}
