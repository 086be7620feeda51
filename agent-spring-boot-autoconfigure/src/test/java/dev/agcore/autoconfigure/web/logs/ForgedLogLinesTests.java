package dev.agcore.autoconfigure.web.logs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.McpServerAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.run.RunAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.autoconfigure.web.a2a.A2aServerAutoConfiguration;
import dev.agcore.autoconfigure.web.agui.AgUiAutoConfiguration;
import dev.agcore.autoconfigure.web.openai.OpenAiAutoConfiguration;
import dev.agcore.autoconfigure.web.ui.AgentUiAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.support.LogSafe;
import dev.agcore.testing.ScriptedChatModel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.util.UriUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, "logs that cannot be forged", end to end over a real socket: CR, LF, NUL,
 * ANSI escape sequences and Unicode line separators are sent through every route (the
 * agent routes the chat page uses, runs, AG-UI, the OpenAI endpoint, A2A and the MCP
 * server) in session ids, user ids, agent names, messages and idempotency keys, and come
 * back from a scripted model in its answers, tool calls and failures. The application
 * logs {@code dev.agcore} at DEBUG with content capture on, with a pattern that prints
 * the turn's MDC and key-value pairs. No captured line may hold a raw control character,
 * and every line must be a log line (or a line of a logged stack trace): none is forged.
 */
@ExtendWith(OutputCaptureExtension.class)
class ForgedLogLinesTests {

	/** What each line of the log starts with. */
	private static final String MARK = "AGLOG";

	/** A line a forger would want to appear in the log, with the log's own prefix. */
	private static final String FORGED = "1999-01-01T00:00:00.000 " + MARK + " ERROR [main] dev.agcore FORGED";

	/** Every kind of control the log must not carry raw. */
	private static final String HOSTILE = "\r\n" + FORGED + "\n\u0000\u001b[31mred\u001b[0m\u001b]0;title\u0007"
			+ "\u2028" + FORGED + "\u2029\u0085\u009b2J\t\u007f";

	private static final Pattern LOG_LINE = Pattern
		.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3} " + MARK + " ");

	// a stack trace's lines: its header (a class name, maybe a message), frames, causes
	private static final Pattern TRACE_LINE = Pattern
		.compile("^(\\t.*|Caused by: .*|Suppressed: .*|\\s*\\.\\.\\. \\d+ (more|common frames omitted)|"
				+ "[a-zA-Z_$][\\w$]*(\\.[a-zA-Z_$][\\w$]*)+(: .*)?)$");

	private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029]");

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@Test
	void noRouteLetsCallerOrModelTextForgeALogLine(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start()) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			String base = "http://localhost:" + port;
			WebTestClient client = WebTestClient.bindToServer().baseUrl(base).responseTimeout(TIMEOUT).build();
			agentRoutes(client);
			runRoutes(client);
			agUi(client);
			openAi(client);
			a2a(client);
			mcp(base);
		}
		String log = output.getAll();
		// the hostile text did reach the log, escaped: the test can see a forgery if there is one
		assertThat(log).contains(LogSafe.text(HOSTILE));
		List<String> lines = log.lines().toList();
		assertThat(lines).isNotEmpty();
		List<String> unsafe = new ArrayList<>();
		List<String> notLogLines = new ArrayList<>();
		for (String line : lines) {
			if (!LogSafe.isSafe(line.replaceFirst("^\\t+", ""))) {
				unsafe.add(LogSafe.text(line));
			}
			if (!LOG_LINE.matcher(line).find() && !TRACE_LINE.matcher(line).matches()) {
				notLogLines.add(LogSafe.text(line));
			}
		}
		assertThat(unsafe).as("lines with raw control characters").isEmpty();
		assertThat(notLogLines).as("lines that are neither log lines nor stack trace lines").isEmpty();
		assertThat(lines).noneMatch((line) -> line.startsWith(FORGED.substring(0, 10)))
			.noneMatch((line) -> line.startsWith("FORGED"));
		// checked apart from LogSafe too: only the LFs that end lines and the TABs of stack frames are left
		assertThat(CONTROL.matcher(log).find()).as("a control character in the output").isFalse();
	}

	private static void agentRoutes(WebTestClient client) {
		String session = session();
		// invoke, the chat page's first call; the model answers with the hostile text
		JsonNode invoked = post(client, "/agents/assistant/invoke",
				Map.of("sessionId", session, "message", "hello" + HOSTILE, "userId", "user" + HOSTILE));
		assertThat(invoked.path("status").asString()).isEqualTo("completed");
		// tool calls with a hostile tool name and arguments
		post(client, "/agents/assistant/invoke", Map.of("sessionId", session, "message", "tools" + HOSTILE));
		// stream, as the chat page does
		client.post()
			.uri("/agents/assistant/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.bodyValue(Map.of("sessionId", session, "message", "stream" + HOSTILE, "userId", "user" + HOSTILE))
			.exchange()
			.expectBody(String.class)
			.returnResult();
		// the model fails with a message that carries the hostile text: logged with its stack trace
		post(client, "/agents/assistant/invoke", Map.of("sessionId", session, "message", "fail" + HOSTILE));
		client.post()
			.uri("/agents/assistant/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.bodyValue(Map.of("sessionId", session(), "message", "fail" + HOSTILE))
			.exchange()
			.expectBody(String.class)
			.returnResult();
		// a paused turn, resumed by the id of the model's hostile tool call
		String paused = session();
		JsonNode interrupted = post(client, "/agents/assistant/invoke",
				Map.of("sessionId", paused, "message", "delete" + HOSTILE));
		assertThat(interrupted.path("status").asString()).isEqualTo("interrupted");
		String callId = interrupted.path("pendingToolCalls").path(0).path("id").asString();
		get(client, "/agents/assistant/sessions/{id}/pending", paused);
		post(client, "/agents/assistant/sessions/" + encoded(paused) + "/resume",
				Map.of("decisions", Map.of(callId, Map.of("type", "approve"))));
		post(client, "/agents/assistant/sessions/" + encoded(paused) + "/resume",
				Map.of("decisions", Map.of("unknown" + HOSTILE, Map.of("type", "reject", "reason", HOSTILE))));
		// reads, lists and deletes, of known and unknown sessions, by hostile ids
		get(client, "/agents/assistant/sessions/{id}/messages", session);
		get(client, "/agents/assistant/sessions/{id}/messages", session());
		get(client, "/agents/-/sessions?userId={user}", "user" + HOSTILE);
		client.delete().uri("/agents/-/sessions/{id}?userId={user}", session, "user" + HOSTILE).exchange();
		// an unknown agent, whose name is echoed in the error
		post(client, "/agents/{agent}/invoke", Map.of("sessionId", session(), "message", "hi"), "nobody" + HOSTILE);
		get(client, "/agents/{agent}/tools", "nobody" + HOSTILE);
		// malformed bodies
		client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"sessionId\": 7, \"message\": \"" + json(HOSTILE) + "\"")
			.exchange();
	}

	private static void runRoutes(WebTestClient client) {
		String session = session();
		JsonNode run = post(client, "/agents/assistant/runs", Map.of("sessionId", session, "message", "run" + HOSTILE,
				"userId", "user" + HOSTILE, "idempotencyKey", "key" + HOSTILE));
		String runId = run.path("id").asString();
		// the same key again, as a retrying client sends it
		post(client, "/agents/assistant/runs", Map.of("sessionId", session, "message", "run" + HOSTILE, "userId",
				"user" + HOSTILE, "idempotencyKey", "key" + HOSTILE));
		client.get()
			.uri("/agents/assistant/runs/{id}/events", runId)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectBody(String.class)
			.returnResult();
		get(client, "/agents/assistant/runs/{id}", runId);
		get(client, "/agents/assistant/runs/{id}", "run" + HOSTILE);
		post(client, "/agents/assistant/runs/{id}/cancel", Map.of(), "run" + HOSTILE);
		post(client, "/agents/assistant/runs", Map.of("sessionId", session(), "message", "fail" + HOSTILE));
		post(client, "/agents/{agent}/runs", Map.of("sessionId", session(), "message", "hi"), "nobody" + HOSTILE);
	}

	private static void agUi(WebTestClient client) {
		Map<String, Object> input = new LinkedHashMap<>();
		input.put("threadId", "thread" + HOSTILE);
		input.put("runId", "run" + HOSTILE);
		input.put("state", Map.of());
		input.put("messages", List.of(Map.of("id", "m" + HOSTILE, "role", "user", "content", "tools" + HOSTILE)));
		input.put("tools", List.of());
		input.put("context", List.of());
		input.put("forwardedProps", Map.of());
		for (String agent : List.of("assistant", "nobody" + HOSTILE)) {
			client.post()
				.uri("/agents/{agent}/ag-ui", agent)
				.contentType(MediaType.APPLICATION_JSON)
				.accept(MediaType.TEXT_EVENT_STREAM)
				.bodyValue(input)
				.exchange()
				.expectBody(String.class)
				.returnResult();
		}
		input.put("threadId", "fail-thread" + HOSTILE);
		input.put("messages", List.of(Map.of("id", "m2", "role", "user", "content", "fail" + HOSTILE)));
		client.post()
			.uri("/agents/assistant/ag-ui")
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.bodyValue(input)
			.exchange()
			.expectBody(String.class)
			.returnResult();
	}

	private static void openAi(WebTestClient client) {
		for (String model : List.of("assistant", "nobody" + HOSTILE)) {
			for (String message : List.of("tools" + HOSTILE, "fail" + HOSTILE)) {
				post(client, "/v1/chat/completions", Map.of("model", model, "user", "user" + HOSTILE, "messages",
						List.of(Map.of("role", "user", "content", message))));
				client.post()
					.uri("/v1/chat/completions")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("model", model, "stream", true, "messages",
							List.of(Map.of("role", "user", "content", message))))
					.exchange()
					.expectBody(String.class)
					.returnResult();
			}
		}
	}

	private static void a2a(WebTestClient client) {
		for (String agent : List.of("assistant", "nobody" + HOSTILE)) {
			for (String text : List.of("tools" + HOSTILE, "fail" + HOSTILE)) {
				Map<String, Object> message = new LinkedHashMap<>();
				message.put("kind", "message");
				message.put("role", "user");
				message.put("messageId", "m" + HOSTILE + UUID.randomUUID());
				message.put("contextId", "context" + HOSTILE + UUID.randomUUID());
				message.put("parts", List.of(Map.of("kind", "text", "text", text)));
				post(client, "/a2a/{agent}", rpc("message/send", Map.of("message", message)), agent);
			}
		}
		post(client, "/a2a/assistant", rpc("tasks/get", Map.of("id", "task" + HOSTILE)));
		post(client, "/a2a/assistant", rpc("tasks/cancel", Map.of("id", "task" + HOSTILE)));
		post(client, "/a2a/assistant", rpc("method" + HOSTILE, Map.of()));
	}

	private static void mcp(String base) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
			.endpoint("/mcp")
			.build();
		try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(15)).build()) {
			client.initialize();
			// the MCP Java SDK's client reads U+2028 in an answer's JSON as a line break and fails
			// to parse it (not the starter's log, which is what this test is about): each call may fail
			for (String message : List.of("tools" + HOSTILE, "fail" + HOSTILE)) {
				call(client, CallToolRequest.builder()
					.name("assistant")
					.arguments(Map.of("message", message, "sessionId", session()))
					.build());
			}
			call(client, CallToolRequest.builder().name("get_weather").arguments(Map.of("city", HOSTILE)).build());
			call(client, CallToolRequest.builder().name("nobody" + HOSTILE).arguments(Map.of()).build());
		}
	}

	private static void call(McpSyncClient client, CallToolRequest request) {
		try {
			client.callTool(request);
		}
		catch (RuntimeException ex) {
			// what the client makes of the answer does not matter here, only the server's log
		}
	}

	private static Map<String, Object> rpc(String method, Map<String, Object> params) {
		return Map.of("jsonrpc", "2.0", "id", "id" + HOSTILE, "method", method, "params", params);
	}

	private static JsonNode post(WebTestClient client, String uri, Object body, Object... variables) {
		byte[] answer = client.post()
			.uri(uri, variables)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		return read(answer);
	}

	private static JsonNode get(WebTestClient client, String uri, Object... variables) {
		return read(client.get().uri(uri, variables).exchange().expectBody().returnResult().getResponseBodyContent());
	}

	private static JsonNode read(byte[] body) {
		if (body == null || body.length == 0) {
			return AgentJson.mapper().missingNode();
		}
		try {
			return AgentJson.mapper().readTree(body);
		}
		catch (RuntimeException ex) {
			return AgentJson.mapper().missingNode();
		}
	}

	private static String session() {
		return "session" + HOSTILE + UUID.randomUUID();
	}

	private static String encoded(String segment) {
		return UriUtils.encodePathSegment(segment, StandardCharsets.UTF_8);
	}

	private static String json(String text) {
		return AgentJson.mapper().writeValueAsString(text).replaceAll("^\"|\"$", "");
	}

	private static ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(HostileApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "spring.main.banner-mode=off",
					// every line starts with the date and the mark, and shows the turn's MDC and key-value pairs
					"logging.pattern.console=%d{yyyy-MM-dd'T'HH:mm:ss.SSS} " + MARK
							+ " %5p [%t] %logger{36} [session=%X{session} agent=%X{agent} run=%X{run}] : %m %kvp%n",
					"logging.level.dev.agcore=DEBUG", "agent.observations.capture-content=true",
					"agent.web.enabled=true", "agent.web.ui.enabled=true", "agent.web.ag-ui.enabled=true",
					"agent.web.openai.enabled=true", "agent.web.a2a.enabled=true", "agent.mcp.server.enabled=true",
					"agent.mcp.server.agents=assistant", "agent.mcp.server.tools=get_weather",
					"agent.agents.assistant.model=scripted",
					"agent.agents.assistant.tools=get_weather,delete_file,broken",
					"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone",
					"agent.untrusted-content.enabled=false")
			.run();
	}

	/**
	 * The application: every route of the starter on, and a model whose answers, tool
	 * calls and failures carry the hostile text.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
			RunAutoConfiguration.class, AgentWebAutoConfiguration.class, AgentUiAutoConfiguration.class,
			AgUiAutoConfiguration.class, OpenAiAutoConfiguration.class, A2aServerAutoConfiguration.class,
			McpServerAutoConfiguration.class })
	static class HostileApplication {

		@Bean
		ChatModel scripted() {
			return ScriptedChatModel.answering((request) -> {
				List<Message> messages = request.messages();
				Message last = messages.get(messages.size() - 1);
				if (last instanceof ToolResultMessage result) {
					return ScriptedChatModel.text("the tool said " + result.text() + HOSTILE);
				}
				String text = (last instanceof UserMessage user) ? user.text() : "";
				if (text.startsWith("fail")) {
					throw new IllegalStateException("the model broke on" + HOSTILE);
				}
				if (text.startsWith("delete")) {
					return ScriptedChatModel.toolCalls(new ToolCall("call" + HOSTILE, "delete_file",
							"{\"path\": \"" + json(HOSTILE) + "\"}"));
				}
				if (text.startsWith("tools")) {
					return ScriptedChatModel.toolCalls(
							new ToolCall("c1" + HOSTILE + UUID.randomUUID(), "tool" + HOSTILE, "{}"),
							new ToolCall("c2" + UUID.randomUUID(), "get_weather",
									"{\"city\": \"" + json(HOSTILE) + "\"}"),
							new ToolCall("c3" + UUID.randomUUID(), "broken", "{\"input\": \"" + json(HOSTILE) + "\"}"));
				}
				return ScriptedChatModel.text("you said " + text + HOSTILE);
			}).withoutRecording();
		}

		@Bean
		MiddlewareTestTools tools() {
			return new MiddlewareTestTools();
		}

	}

}
