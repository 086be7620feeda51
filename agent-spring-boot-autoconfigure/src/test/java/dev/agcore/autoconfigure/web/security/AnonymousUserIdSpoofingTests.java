package dev.agcore.autoconfigure.web.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.budget.BudgetAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.security.MatrixHttp.Reply;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.config.Customizer.withDefaults;

/**
 * Issue 27's anonymous callers on open routes: the application leaves the agent routes
 * {@code permitAll} and authenticates bob with HTTP Basic. A caller without credentials
 * who names {@code "userId": "bob"} in the body, or {@code ?userId=bob} in the query,
 * speaks for nobody: it cannot spend bob's budget (one turn a minute), list bob's
 * sessions, plant a session in bob's list, nor delete bob's session.
 * <p>
 * Each test uses a user of its own (bob, bea, ben), as each has one turn a minute.
 */
@SpringBootTest(classes = AnonymousUserIdSpoofingTests.OpenRoutesApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "spring.main.banner-mode=off",
				"agent.web.enabled=true", "agent.agents.assistant.model=scripted",
				"agent.budget.turns-per-minute=1", "agent.budget.per=principal",
				"agent.untrusted-content.enabled=false" })
class AnonymousUserIdSpoofingTests {

	@LocalServerPort
	private int port;

	@Test
	void anAnonymousCallerNamingBobDoesNotSpendBobsBudget() {
		MatrixHttp anonymous = MatrixHttp.as(this.port, null);
		List<Reply> spoofed = new ArrayList<>();
		spoofed.add(anonymous.post("/agents/assistant/invoke",
				Map.of("sessionId", newSession(), "userId", "bob", "message", "on bob's budget")));
		spoofed.add(anonymous.post("/agents/assistant/invoke?userId=bob",
				Map.of("sessionId", newSession(), "message", "on bob's budget, by query")));
		spoofed.add(anonymous.post("/agents/assistant/stream",
				Map.of("sessionId", newSession(), "userId", "bob", "message", "streamed on bob's budget")));
		spoofed.add(anonymous.post("/agents/assistant/runs",
				Map.of("sessionId", newSession(), "userId", "bob", "message", "a run on bob's budget")));

		Reply bobs = MatrixHttp.as(this.port, "bob")
			.post("/agents/assistant/invoke", Map.of("sessionId", newSession(), "message", "my own turn"));

		assertThat(bobs.status()).as("bob's first turn of the minute, after anonymous calls naming him %s: %s",
				spoofed, bobs).isEqualTo(200);
		assertThat(bobs.body()).contains("echo: my own turn");
	}

	@Test
	void anAnonymousCallerCannotListBeasSessions() {
		String beas = newSession();
		assertThat(MatrixHttp.as(this.port, "bea")
			.post("/agents/assistant/invoke", Map.of("sessionId", beas, "message", "bea's secret"))
			.status()).isEqualTo(200);

		Reply listed = MatrixHttp.as(this.port, null).get("/agents/-/sessions?userId=bea&limit=1000");

		assertThat(listed.status()).as("answered %s", listed).isLessThan(500);
		assertThat(listed.body()).as("an anonymous listing of bea's sessions: %s", listed).doesNotContain(beas);
	}

	@Test
	void anAnonymousCallerCannotPlantASessionInBensList() {
		String planted = newSession();
		String plantedByQuery = newSession();
		MatrixHttp anonymous = MatrixHttp.as(this.port, null);
		anonymous.post("/agents/assistant/invoke",
				Map.of("sessionId", planted, "userId", "ben", "message", "look at this link"));
		anonymous.post("/agents/assistant/invoke?userId=ben",
				Map.of("sessionId", plantedByQuery, "message", "look at this link"));

		Reply bens = MatrixHttp.as(this.port, "ben").get("/agents/-/sessions?limit=1000");

		assertThat(bens.status()).as("ben lists his sessions: %s", bens).isEqualTo(200);
		assertThat(bens.body()).as("ben's list").doesNotContain(planted, plantedByQuery);
	}

	@Test
	void anAnonymousCallerCannotDeleteBiasSession() {
		String bias = newSession();
		MatrixHttp bia = MatrixHttp.as(this.port, "bia");
		assertThat(bia.post("/agents/assistant/invoke", Map.of("sessionId", bias, "message", "keep this")).status())
			.isEqualTo(200);

		Reply deleted = MatrixHttp.as(this.port, null).delete("/agents/-/sessions/" + bias + "?userId=bia");

		assertThat(deleted.status()).as("an anonymous delete of bia's session: %s", deleted).isBetween(400, 499);
		Reply messages = bia.get("/agents/assistant/sessions/" + bias + "/messages");
		assertThat(messages.status()).as("bia reads her session: %s", messages).isEqualTo(200);
		assertThat(messages.body()).contains("keep this");
	}

	private static String newSession() {
		return "spoof-" + UUID.randomUUID();
	}

	/**
	 * The agent routes open to everyone, with HTTP Basic for those who have an account,
	 * and a budget of one turn a minute per principal.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableWebFluxSecurity
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class, BudgetAutoConfiguration.class,
			AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class, RunAutoConfiguration.class,
			AgentWebAutoConfiguration.class })
	static class OpenRoutesApplication {

		@Bean
		SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
				.httpBasic(withDefaults())
				.csrf(ServerHttpSecurity.CsrfSpec::disable)
				.build();
		}

		@Bean
		MapReactiveUserDetailsService users() {
			return new MapReactiveUserDetailsService(
					User.withUsername("bob").password("{noop}bob-pw").roles("USER").build(),
					User.withUsername("bea").password("{noop}bea-pw").roles("USER").build(),
					User.withUsername("ben").password("{noop}ben-pw").roles("USER").build(),
					User.withUsername("bia").password("{noop}bia-pw").roles("USER").build());
		}

		@Bean
		ScriptedChatModel scripted() {
			return OwnershipMatrixApplication.echoingModel();
		}

	}

}
