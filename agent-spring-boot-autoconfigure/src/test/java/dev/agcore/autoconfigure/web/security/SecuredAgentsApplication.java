package dev.agcore.autoconfigure.web.security;

import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.Tool;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

import static org.springframework.security.config.Customizer.withDefaults;

/**
 * A reactive web application with the agent routes behind Spring Security (HTTP basic;
 * users alice and bob with role USER, root with ADMIN), an agent {@code assistant} and an
 * agent {@code admin-bot} whose properties the tests set, and a model that calls the tool
 * its message names ("call whoami") and otherwise echoes.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
		WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
		ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
		AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class, RunAutoConfiguration.class,
		AgentWebAutoConfiguration.class })
class SecuredAgentsApplication {

	// docs/security.md: the minimal chain
	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
		return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
			.httpBasic(withDefaults())
			// a stateless API authenticated on every request; keep CSRF for cookie sessions
			.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.build();
	}
	// end of the minimal chain

	@Bean
	MapReactiveUserDetailsService users() {
		return new MapReactiveUserDetailsService(
				User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
				User.withUsername("bob").password("{noop}bob-pw").roles("USER").build(),
				User.withUsername("root").password("{noop}root-pw").roles("ADMIN", "USER").build());
	}

	@Bean
	ChatModel scripted() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			Message last = messages.get(messages.size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("tool said: " + result.text());
			}
			String text = (last instanceof UserMessage user) ? user.text() : "";
			if (text.startsWith("call ")) {
				String tool = text.substring("call ".length()).strip();
				return ScriptedChatModel.toolCalls(new ToolCall("c-" + System.nanoTime(), tool, "{}"));
			}
			return ScriptedChatModel.text("echo: " + text);
		}).withoutRecording();
	}

	@Bean
	WhoTools whoTools() {
		return new WhoTools();
	}

	/**
	 * Tools that tell who called them, from the injected principal and from Spring
	 * Security's holder on the tool's own thread.
	 */
	public static class WhoTools {

		/** What each call saw, by the principal's name. */
		final Map<String, String> seen = new ConcurrentHashMap<>();

		// docs/security.md: a tool with the caller's principal
		@Tool(description = "Tell who the user is")
		public String whoami(@Nullable Principal principal) {
			Authentication holder = SecurityContextHolder.getContext().getAuthentication();
			String name = (principal != null) ? principal.getName() : "nobody";
			String seen = name + " | holder " + ((holder != null) ? holder.getName() : "none") + " | thread "
					+ Thread.currentThread().getName();
			this.seen.put(name, seen);
			return name;
		}
		// end of the tool with the principal

		@Tool(description = "An operation for administrators")
		public String adminOp() {
			return "admin done";
		}

	}

}
