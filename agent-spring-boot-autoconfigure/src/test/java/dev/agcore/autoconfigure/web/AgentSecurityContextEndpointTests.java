package dev.agcore.autoconfigure.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.server.WebFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a tool of a turn that came through {@code /agents/{agent}/invoke} sees the
 * authenticated principal through {@link SecurityContextHolder}, as Spring Security's
 * WebFlux filter chain leaves it in the Reactor context.
 */
class AgentSecurityContextEndpointTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("whoTools", WhoTools.class)
		.withBean("scripted", ChatModel.class,
				() -> ScriptedChatModel.replaying(ScriptedChatModel.toolCalls(new ToolCall("c1", "whoami", "{}")),
						ScriptedChatModel.text("done")))
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.model=scripted");

	@Test
	void aToolSeesTheAuthenticatedPrincipalOfTheRequest() {
		// what Spring Security's ReactorContextWebFilter does for an authenticated exchange
		WebFilter authenticated = (exchange, chain) -> chain.filter(exchange)
			.contextWrite(ReactiveSecurityContextHolder.withAuthentication(
					new TestingAuthenticationToken("alice", "pw", "ROLE_USER")));
		this.contextRunner.run((context) -> {
			RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
			WebTestClient client = WebTestClient.bindToRouterFunction(router).webFilter(authenticated).build();

			client.post()
				.uri("/agents/assistant/invoke")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("sessionId", "s1", "message", "who am I?"))
				.exchange()
				.expectStatus()
				.isOk();

			WhoTools tools = context.getBean(WhoTools.class);
			assertThat(tools.seen).containsEntry("user", "alice")
				.containsEntry("agent", "assistant")
				.containsEntry("session", "s1");
		});
	}

	/** A tool that records who called it. */
	public static class WhoTools {

		final Map<String, String> seen = new ConcurrentHashMap<>();

		@Tool(name = "whoami", description = "Tell who the user is")
		public String whoami() {
			Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
			this.seen.put("user", (authentication != null) ? authentication.getName() : "nobody");
			this.seen.put("agent", String.valueOf(MDC.get("agent")));
			this.seen.put("session", String.valueOf(MDC.get("session")));
			return "you";
		}

	}

}
