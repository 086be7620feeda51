package dev.agcore.autoconfigure.web;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent routes without Spring Security: anonymous sessions as before (a user id
 * from the request, deletes idempotent), CORS closed unless configured, and a
 * {@link PrincipalResolver} bean for applications that say who the caller is some other
 * way.
 */
class AgentAccessWithoutSecurityTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class,
				() -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")).withoutRecording())
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.agents.admin-bot.model=scripted", "agent.agents.admin-bot.roles=ADMIN");

	@Test
	void withoutSpringSecurityAnonymousSessionsWorkAsBeforeAndCorsIsClosed() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run(AgentRoutes.withClient((client) -> {
				invoke(client, "s1", Map.of("userId", "u-1")).expectStatus().isOk();
				client.get().uri("/agents/assistant/sessions/s1/messages").exchange().expectStatus().isOk();
				client.get().uri("/agents/-/sessions?userId=u-1").exchange()
					.expectStatus()
					.isOk()
					.expectBody()
					.jsonPath("$[0].sessionId")
					.isEqualTo("s1");
				client.delete().uri("/agents/-/sessions/s1?userId=u-1").exchange().expectStatus().isNoContent();
				client.delete().uri("/agents/-/sessions/s1?userId=u-1").exchange().expectStatus().isNoContent();
				// an agent with roles is for principals only
				client.get().uri("/agents").exchange()
					.expectBody()
					.jsonPath("$[*].name")
					.isEqualTo(List.of("assistant"));
			}));
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(AgentCors.class));
	}

	@Test
	void anAnonymousCallerGetsTheUnknownSessionAnswerForASessionAPrincipalOwns() {
		this.contextRunner.run((context) -> {
			SessionOwners.of(context.getBean(KeyValueStore.class)).claim("owned", "alice").block(Duration.ofSeconds(5));
			WebTestClient client = WebTestClient
				.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class))
				.build();
			client.get().uri("/agents/assistant/sessions/owned/messages").exchange()
				.expectStatus()
				.isNotFound()
				.expectBody()
				.jsonPath("$.message")
				.isEqualTo("No session 'owned'");
			invoke(client, "owned", Map.of()).expectStatus().isNotFound();
			client.delete().uri("/agents/-/sessions/owned").exchange().expectStatus().isNotFound();
		});
	}

	// docs/security.md: a PrincipalResolver
	@Test
	void aPrincipalResolverBeanSaysWhoTheCallerIs() {
		this.contextRunner
			.withBean(PrincipalResolver.class, () -> (exchange) -> Mono
				.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-User"))
				.map((user) -> AgentPrincipal.of(user, "ROLE_USER")))
			.run(AgentRoutes.withClient((client) -> {
				client.post()
					.uri("/agents/assistant/invoke")
					.header("X-User", "alice")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s1", "message", "hi", "userId", "mallory"))
					.exchange()
					.expectStatus()
					.isOk();
				client.get().uri("/agents/assistant/sessions/s1/messages").header("X-User", "bob").exchange()
					.expectStatus()
					.isNotFound();
				client.get().uri("/agents/assistant/sessions/s1/messages").exchange().expectStatus().isNotFound();
				client.get().uri("/agents/assistant/sessions/s1/messages").header("X-User", "alice").exchange()
					.expectStatus()
					.isOk();
				// the principal's name is the user id, not the one the body claimed
				client.get().uri("/agents/-/sessions?userId=mallory").header("X-User", "alice").exchange()
					.expectBody()
					.jsonPath("$[*].sessionId")
					.isEqualTo(List.of("s1"));
				// with Spring Security on the class path an anonymous caller names no user: nothing to list
				client.get().uri("/agents/-/sessions?userId=mallory").exchange().expectStatus().isBadRequest();
			}));
	}

	@Test
	void corsWithCredentialsForAnyOriginFailsStartup() {
		this.contextRunner
			.withPropertyValues("agent.web.cors.allowed-origins=*", "agent.web.cors.allow-credentials=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.web.cors.allow-credentials=true"));
	}

	@Test
	void aBlankAgentRoleFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.agents.assistant.roles[0]= ")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.agents.assistant.roles must not hold a blank role"));
	}

	private static WebTestClient.ResponseSpec invoke(WebTestClient client, String sessionId,
			Map<String, String> more) {
		Map<String, String> body = new LinkedHashMap<>(Map.of("sessionId", sessionId, "message", "hi"));
		body.putAll(more);
		return client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

}
