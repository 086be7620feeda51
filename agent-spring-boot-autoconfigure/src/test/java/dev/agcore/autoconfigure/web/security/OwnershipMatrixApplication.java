package dev.agcore.autoconfigure.web.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.Tool;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.AuditListener;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.McpServerAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.a2a.A2aServerAutoConfiguration;
import dev.agcore.autoconfigure.web.agui.AgUiAutoConfiguration;
import dev.agcore.autoconfigure.web.openai.OpenAiAutoConfiguration;
import dev.agcore.autoconfigure.web.problem.AgentAccessProblemAutoConfiguration;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.security.config.Customizer.withDefaults;

/**
 * A reactive application with every way into an agent switched on: the agent routes with
 * background runs, AG-UI, the OpenAI-compatible endpoint, A2A, the MCP server offering
 * the agent, and controllers of the application's own that call {@link Agent} as the
 * README's Quick start does. Spring Security authenticates alice and bob with HTTP Basic
 * and leaves every route open, so anonymous callers reach each entry point too: whatever
 * keeps users apart must be the runtime's own check, not the filter chain.
 * <p>
 * The model is scripted and records what it is sent: a message {@code call delete_file}
 * makes it call a tool that waits for a person's approval; anything else is echoed.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
		WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
		ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
		MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
		RunAutoConfiguration.class, AgentWebAutoConfiguration.class, AgUiAutoConfiguration.class,
		OpenAiAutoConfiguration.class, A2aServerAutoConfiguration.class, McpServerAutoConfiguration.class,
		AuditAutoConfiguration.class, AgentAccessProblemAutoConfiguration.class })
@Import({ OwnershipMatrixApplication.ChatController.class, OwnershipMatrixApplication.ChatStreamController.class })
class OwnershipMatrixApplication {

	/** The audit events of the application, as an audit sink would receive them. */
	static final class AuditTrail implements AuditListener {

		final List<AuditEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onAuditEvent(AuditEvent event) {
			this.events.add(event);
		}

	}

	/** Every route open; HTTP Basic says who a caller is when it sends credentials. */
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
				User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
				User.withUsername("bob").password("{noop}bob-pw").roles("USER").build());
	}

	@Bean
	ScriptedChatModel scripted() {
		return echoingModel();
	}

	/** Every audit event, for the refusals. */
	@Bean
	AuditTrail auditTrail() {
		return new AuditTrail();
	}

	@Bean
	FileTools fileTools() {
		return new FileTools();
	}

	/**
	 * A recording model: {@code call delete_file} calls that tool, a tool result is
	 * reported, anything else echoed.
	 * @return the model
	 */
	static ScriptedChatModel echoingModel() {
		return ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			Message last = messages.get(messages.size() - 1);
			if (last instanceof ToolResultMessage result) {
				return ScriptedChatModel.text("tool said: " + result.text());
			}
			String text = (last instanceof UserMessage user) ? user.text() : "";
			if (text.startsWith("call delete_file")) {
				return ScriptedChatModel
					.toolCalls(new ToolCall("c-" + System.nanoTime(), "delete_file", "{\"path\": \"/tmp/plan\"}"));
			}
			return ScriptedChatModel.text("echo: " + text);
		});
	}

	/** A tool that waits for a person's approval before it runs. */
	public static class FileTools {

		@Tool(name = "delete_file", description = "Delete a file")
		public String deleteFile(String path) {
			return "deleted " + path;
		}

	}

	/** The README's Quick start controller, unchanged. */
	@RestController
	static class ChatController {

		private final Agent agent;

		ChatController(Agent agent) {
			this.agent = agent;
		}

		@PostMapping("/chat")
		Mono<String> chat(@RequestParam String session, @RequestBody String message) {
			return agent.invoke(AgentRequest.of(session, message)).map(AgentResult::output);
		}

	}

	/** The same controller streaming, and reading a conversation back. */
	@RestController
	static class ChatStreamController {

		/** How the stream shows the failure that ends it. */
		static final String FAILED = "[failed] ";

		private final Agent agent;

		ChatStreamController(Agent agent) {
			this.agent = agent;
		}

		// a stream ends with a Failed event, not an error signal: shown as the last line
		@PostMapping("/chat/stream")
		Flux<String> stream(@RequestParam String session, @RequestBody String message) {
			return this.agent.stream(AgentRequest.of(session, message)).mapNotNull((event) -> {
				if (event instanceof AgentEvent.TextDelta text) {
					return text.text();
				}
				if (event instanceof AgentEvent.Failed failed) {
					return FAILED + failed.errorType() + ": " + failed.message();
				}
				return null;
			});
		}

		@GetMapping("/chat/history")
		Mono<List<String>> history(@RequestParam String session) {
			return this.agent.history(session).map((messages) -> messages.stream().map(Message::text).toList());
		}

	}

}
