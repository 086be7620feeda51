package dev.agcore.autoconfigure.web.security;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.problem.AgentAccessProblemAutoConfiguration;
import dev.agcore.autoconfigure.web.security.MatrixHttp.Reply;
import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.config.Customizer.withDefaults;

/**
 * The ownership matrix's servlet row: a Spring MVC application on Tomcat whose own
 * blocking controller calls {@code agent.call(...)} on the request thread, with Spring
 * Security's {@code SecurityContextHolder} the only place that says who the caller is.
 * Alice's conversation is made through that controller; bob and an anonymous caller then
 * try to continue and to read it. Every route is open in the filter chain.
 * <p>
 * Runs in its own surefire execution (profile {@code servlet-matrix}, on in a full
 * build), the only one whose class path has Spring MVC and Tomcat:
 * {@code mvn -pl agent-spring-boot-autoconfigure -am test -Pservlet-matrix -Dtest=ServletOwnershipMatrixTests}.
 */
@EnabledIfSystemProperty(named = "agcore.servlet-classpath", matches = "true",
		disabledReason = "needs Spring MVC and Tomcat on the class path: the servlet-matrix profile's execution")
@SpringBootTest(classes = ServletOwnershipMatrixTests.ServletApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "spring.main.banner-mode=off",
				"agent.agents.assistant.model=scripted", "agent.untrusted-content.enabled=false" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServletOwnershipMatrixTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@LocalServerPort
	private int port;

	@Autowired
	private ScriptedChatModel model;

	@Autowired
	private ConversationStore store;

	private String secret;

	private String alicesSession;

	@BeforeAll
	void aliceTalksThroughTheController() {
		this.secret = "alice-secret-" + UUID.randomUUID();
		this.alicesSession = "a-mvc-" + UUID.randomUUID();
		Reply reply = MatrixHttp.as(this.port, "alice").postText("/chat?session=" + this.alicesSession,
				this.secret + " is my plan");
		assertThat(reply.status()).as("alice's own turn: %s", reply).isEqualTo(200);
		assertThat(reply.body()).isEqualTo("echo: " + this.secret + " is my plan");
		assertThat(MatrixHttp.as(this.port, "alice").get("/chat/history?session=" + this.alicesSession).body())
			.as("alice reads her own conversation back")
			.contains(this.secret);
	}

	@ParameterizedTest(name = "servlet controller: {0} by {1}")
	@CsvSource(nullValues = "anonymous", value = { "agent.call (continue), bob", "agent.call (continue), anonymous",
			"agent.history (read), bob", "agent.history (read), anonymous" })
	void anotherCallerCannotUseAlicesConversation(String operation, @Nullable String attacker) {
		String cell = "servlet controller: " + operation + " by " + ((attacker != null) ? attacker : "an anonymous caller");
		List<Message> before = this.store.load(this.alicesSession).block(TIMEOUT).messages();
		String marker = "intruder-" + UUID.randomUUID();
		MatrixHttp http = MatrixHttp.as(this.port, attacker);

		Reply reply = operation.startsWith("agent.call") ? http.postText("/chat?session=" + this.alicesSession, marker)
				: http.get("/chat/history?session=" + this.alicesSession);

		// the starter's advice answers the refusal as it answers an unknown session
		assertThat(reply.status()).as("%s: answered %s", cell, reply).isEqualTo(404);
		assertThat(reply.body()).as("%s: answered %s", cell, reply).contains("No session '" + this.alicesSession + "'");
		assertThat(reply.body()).as("%s: the answer shows nothing of alice's", cell)
			.doesNotContain(this.secret);
		assertThat(this.model.requests()).as("%s: the model never received the intruder's message", cell)
			.noneMatch((request) -> request.messages().stream().anyMatch((message) -> message.text().contains(marker)));
		assertThat(this.store.load(this.alicesSession).block(TIMEOUT).messages())
			.as("%s: alice's conversation is unchanged", cell)
			.isEqualTo(before);
	}

	/**
	 * A servlet application: Spring MVC on Tomcat, HTTP Basic users alice and bob, every
	 * route open, the agent {@code assistant} on an echoing model, and a blocking
	 * controller of the application's own.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableWebSecurity
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class, SecurityFilterAutoConfiguration.class,
			ChatModelAutoConfiguration.class, ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
			AgentMetricsAutoConfiguration.class, MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
			AgentAccessProblemAutoConfiguration.class })
	@Import(BlockingChatController.class)
	static class ServletApplication {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic(withDefaults())
				.csrf(AbstractHttpConfigurer::disable)
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
					User.withUsername("bob").password("{noop}bob-pw").roles("USER").build());
		}

		@Bean
		ScriptedChatModel scripted() {
			return OwnershipMatrixApplication.echoingModel();
		}

	}

	/** A blocking controller, as a Spring MVC application writes one. */
	@RestController
	static class BlockingChatController {

		private final Agent agent;

		BlockingChatController(Agent agent) {
			this.agent = agent;
		}

		@PostMapping("/chat")
		String chat(@RequestParam String session, @RequestBody String message) {
			return this.agent.call(AgentRequest.of(session, message)).output();
		}

		@GetMapping("/chat/history")
		String history(@RequestParam String session) {
			List<Message> messages = this.agent.history(session).block(TIMEOUT);
			return (messages != null) ? messages.stream().map(Message::text).collect(Collectors.joining("\n")) : "";
		}

	}

}
