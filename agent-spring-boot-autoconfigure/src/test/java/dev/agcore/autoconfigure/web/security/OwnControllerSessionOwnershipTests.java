package dev.agcore.autoconfigure.web.security;

import java.util.List;
import java.util.UUID;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.problem.AgentAccessProblemAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentAccessDeniedException;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.CallerResolver;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.config.Customizer.withDefaults;

/**
 * The README's {@code /chat} controller, unchanged, in a WebFlux application secured by
 * Spring Security, over a real socket: the agent itself decides who may use a session,
 * so bob cannot continue or read alice's conversation, the model never sees bob's
 * message, and nothing of bob's is stored in hers. The application writes no security
 * code for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OwnControllerSessionOwnershipTests {

	private ConfigurableApplicationContext context;

	private WebTestClient client;

	@BeforeAll
	void start() {
		this.context = new SpringApplicationBuilder(OwnControllerApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "spring.main.banner-mode=off", "agent.agents.assistant.model=scripted")
			.run();
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		this.client = WebTestClient.bindToServer()
			.baseUrl("http://localhost:" + port)
			.responseTimeout(java.time.Duration.ofSeconds(30))
			.build();
	}

	@AfterAll
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void theStarterResolvesTheCallerFromSpringSecurity() {
		assertThat(this.context.getBean(CallerResolver.class).secured()).isTrue();
	}

	@Test
	void bobCannotContinueOrReadAlicesSessionThroughTheApplicationsOwnController() {
		String session = "s-" + UUID.randomUUID();
		chat("alice", session, "alice's secret plan").expectStatus().isOk().expectBody(String.class)
			.isEqualTo("echo: alice's secret plan");

		// the README's controller maps no error: the starter's advice answers the refusal as an unknown session
		chat("bob", session, "bob was here").expectStatus().isNotFound().expectBody(String.class)
			.value((body) -> assertThat(body).contains("\"detail\":\"No session '" + session + "'\"",
					"\"error\":\"not_found\"").doesNotContain("secret"));
		as("bob", this.client.get().uri("/history?session=" + session)).exchange().expectStatus().isNotFound();
		// the same answer as for a session that does not exist
		as("bob", this.client.get().uri("/history?session=unknown-" + session)).exchange()
			.expectStatus()
			.isNotFound()
			.expectBody(String.class)
			.isEqualTo("No session 'unknown-" + session + "'");

		assertThat(model().requests()).flatMap(this::userTexts).doesNotContain("bob was here");
		as("alice", this.client.get().uri("/history?session=" + session)).exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("[alice's secret plan, echo: alice's secret plan]");
		chat("alice", session, "still mine").expectStatus().isOk();
	}

	private List<String> userTexts(dev.agcore.model.ChatRequest request) {
		return request.messages().stream().filter(UserMessage.class::isInstance).map(Message::text).toList();
	}

	private ScriptedChatModel model() {
		return this.context.getBean("scripted", ScriptedChatModel.class);
	}

	private WebTestClient.ResponseSpec chat(String user, String session, String message) {
		return as(user, this.client.post()
			.uri("/chat?session=" + session)
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue(message)).exchange();
	}

	private static WebTestClient.RequestHeadersSpec<?> as(String user, WebTestClient.RequestHeadersSpec<?> request) {
		return request.headers((headers) -> headers.setBasicAuth(user, user + "-pw"));
	}

	/** The README's application: its controller, a security chain, two users. */
	@Configuration(proxyBeanMethods = false)
	@EnableWebFluxSecurity
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
			AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
			AgentAccessProblemAutoConfiguration.class })
	static class OwnControllerApplication {

		@Bean
		SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
				.httpBasic(withDefaults())
				.csrf(ServerHttpSecurity.CsrfSpec::disable)
				.build();
		}

		@Bean
		MapReactiveUserDetailsService users() {
			return new MapReactiveUserDetailsService(
					User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
					User.withUsername("bob").password("{noop}bob-pw").roles("USER").build());
		}

		@Bean
		ScriptedChatModel scripted() {
			return ScriptedChatModel.answering((request) -> {
				List<Message> messages = request.messages();
				return ScriptedChatModel.text("echo: " + messages.get(messages.size() - 1).text());
			});
		}

		@Bean
		ChatController chatController(Agent agent) {
			return new ChatController(agent);
		}

		@Bean
		HistoryController historyController(Agent agent) {
			return new HistoryController(agent);
		}

	}

	/** The README's controller, as a newcomer writes it. */
	@RestController
	static class ChatController {

		private final Agent agent;

		ChatController(Agent agent) {
			this.agent = agent;
		}

		@PostMapping("/chat")
		Mono<String> chat(@RequestParam String session, @RequestBody String message) {
			return this.agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
		}

	}

	/** A page of a session's history, answering a refusal as an unknown session. */
	@RestController
	static class HistoryController {

		private final Agent agent;

		HistoryController(Agent agent) {
			this.agent = agent;
		}

		@GetMapping("/history")
		Mono<String> history(@RequestParam String session) {
			return this.agent.history(session)
				.map((messages) -> messages.stream().map(Message::text).toList().toString());
		}

		@ExceptionHandler
		ResponseEntity<String> denied(AgentAccessDeniedException ex) {
			return ResponseEntity.status(HttpStatus.NOT_FOUND).body(ex.getMessage());
		}

	}

}
