package dev.agcore.mcp.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.secret.SecretResolver;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link McpServerTools}: how the application's tools look to MCP clients and
 * how their calls run.
 */
class McpServerToolsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final RecordingSession session = new RecordingSession();

	private final McpAsyncServerExchange exchange = new McpAsyncServerExchange("mcp-session-1", this.session,
			new McpSchema.ClientCapabilities(null, null, null, null), new McpSchema.Implementation("test", "1.0"),
			McpTransportContext.EMPTY);

	@Test
	void toolKeepsItsNameDescriptionAndSchemaAndReadOnlyBecomesAHint() {
		McpSchema.Tool tool = only(McpServerTools.builder()
			.tool(tool("get_weather", ToolMetadata.DEFAULT.withPermission(ToolPermission.READ_ONLY),
					(arguments, context) -> "sunny"))
			.build()).tool();

		assertThat(tool.name()).isEqualTo("get_weather");
		assertThat(tool.description()).isEqualTo("Tells the get_weather");
		assertThat(tool.inputSchema()).containsEntry("type", "object");
		assertThat((Map<String, Object>) tool.inputSchema().get("properties")).containsOnlyKeys("city");
		assertThat((List<Object>) tool.inputSchema().get("required")).containsExactly("city");
		assertThat(tool.annotations().readOnlyHint()).isTrue();
		assertThat(tool.annotations().destructiveHint()).isNull();
	}

	@Test
	void writingToolIsNotReadOnlyNorDestructiveAndDestructiveOneIs() {
		assertThat(ExposedTool.annotations(ToolPermission.WRITE))
			.isEqualTo(new McpSchema.ToolAnnotations(null, false, false, null, null, null));
		assertThat(ExposedTool.annotations(ToolPermission.DESTRUCTIVE))
			.isEqualTo(new McpSchema.ToolAnnotations(null, false, true, null, null, null));
	}

	@Test
	void customPermissionLeavesDestructivenessUnknown() {
		assertThat(ExposedTool.annotations(ToolPermission.custom("billing:refund")))
			.isEqualTo(new McpSchema.ToolAnnotations(null, false, null, null, null, null));
	}

	@Test
	void toolRunsOffTheEventLoopInTheMcpSessionAsTheMcpCaller() {
		AtomicReference<ToolContext> seen = new AtomicReference<>();
		AtomicReference<String> thread = new AtomicReference<>();
		AtomicReference<String> received = new AtomicReference<>();
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					seen.set(context);
					thread.set(Thread.currentThread().getName());
					received.set(arguments);
					return "Paris: sunny";
				}))
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "Paris"));

		assertThat(result.isError()).isFalse();
		assertThat(text(result)).isEqualTo("Paris: sunny");
		assertThat(thread.get()).startsWith("boundedElastic");
		assertThat(seen.get().sessionId()).isEqualTo("mcp-session-1");
		assertThat(seen.get().agentName()).isEqualTo(McpServerTools.CALLER);
		assertThat(AgentJson.mapper().readTree(received.get()).get("city").asString()).isEqualTo("Paris");
	}

	@Test
	void toolFailureIsAnErrorResultWithItsMessageAndNoStackTrace() {
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					throw new IllegalStateException("weather service down");
				}))
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "Paris"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Tool 'get_weather' failed: weather service down");
	}

	@Test
	void invalidArgumentsAreAnErrorResultSayingSo() {
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					throw new ToolArgumentsException("'city' is required");
				}))
			.build();

		CallToolResult result = call(only(tools), Map.of());

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Invalid arguments for tool 'get_weather': 'city' is required");
	}

	@Test
	void callTheApplicationsPolicyDeniesNeverRunsTheTool() {
		AtomicInteger runs = new AtomicInteger();
		List<String> askedFor = new ArrayList<>();
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("delete_note", ToolMetadata.DEFAULT.withPermission(ToolPermission.DESTRUCTIVE),
					(arguments, context) -> "deleted " + runs.incrementAndGet()))
			.permissionPolicy((agentName, tool, call) -> {
				askedFor.add(agentName);
				return PermissionDecision.deny("destructive tools need a person");
			})
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "x"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Tool 'delete_note' was denied: destructive tools need a person");
		assertThat(runs).hasValue(0);
		assertThat(askedFor).containsExactly(McpServerTools.CALLER);
	}

	@Test
	void secretReferenceIsResolvedForTheToolAndScrubbedFromWhatItReturns() {
		AtomicReference<String> received = new AtomicReference<>();
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("get_weather", ToolMetadata.DEFAULT.withSecretParameters(Set.of("city")),
					(arguments, context) -> {
						received.set(arguments);
						return "called with " + arguments;
					}))
			.secretResolver(SecretResolver.of(Map.of("CITY_KEY", "s3cr3t-value")))
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "<secret_ref:CITY_KEY>"));

		assertThat(received.get()).contains("s3cr3t-value");
		assertThat(text(result)).doesNotContain("s3cr3t-value").contains("<secret_ref:CITY_KEY>");
	}

	@Test
	void secretReferenceInAnIneligibleArgumentRefusesTheCall() {
		AtomicInteger runs = new AtomicInteger();
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("get_weather", ToolMetadata.DEFAULT.withSecretParameters(Set.of()),
					(arguments, context) -> "run " + runs.incrementAndGet()))
			.secretResolver(SecretResolver.of(Map.of("CITY_KEY", "s3cr3t-value")))
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "<secret_ref:CITY_KEY>"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).startsWith("Tool 'get_weather' was not run: parameter 'city' may not carry");
		assertThat(runs).hasValue(0);
	}

	@Test
	void toolThatOverrunsItsTimeoutIsAnErrorResult() {
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("slow", ToolMetadata.DEFAULT.withTimeout(Duration.ofMillis(200)), (arguments, context) -> {
				Thread.sleep(5_000);
				return "late";
			}))
			.build();

		CallToolResult result = call(only(tools), Map.of());

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Tool 'slow' did not finish within 200 ms and was cancelled");
	}

	@Test
	void toolWithoutTimeoutIsBoundByTheServersToolTimeout() {
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("slow", ToolMetadata.DEFAULT, (arguments, context) -> {
				Thread.sleep(5_000);
				return "late";
			}))
			.toolTimeout(Duration.ofMillis(300))
			.build();

		assertThat(text(call(only(tools), Map.of()))).isEqualTo("Tool 'slow' did not finish within 300 ms and was cancelled");
	}

	@Test
	void progressTheToolReportsGoesToTheClientThatAskedForIt() {
		McpServerTools tools = McpServerTools.builder().tool(tool("index", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					context.progress().report(1, 2.0, "half way");
					context.progress().report(2, 2.0, null);
					return "indexed";
				}))
			.build();
		CallToolRequest request = new CallToolRequest("index", Map.of(), Map.of("progressToken", "token-1"));

		CallToolResult result = only(tools).callHandler().apply(this.exchange, request).block(TIMEOUT);

		assertThat(text(result)).isEqualTo("indexed");
		assertThat(this.session.notifications).extracting(Notification::method)
			.containsExactly("notifications/progress", "notifications/progress");
		McpSchema.ProgressNotification first = (McpSchema.ProgressNotification) this.session.notifications.get(0)
			.params();
		assertThat(first.progressToken()).isEqualTo("token-1");
		assertThat(first.progress()).isEqualTo(1.0);
		assertThat(first.total()).isEqualTo(2.0);
		assertThat(first.message()).isEqualTo("half way");
	}

	@Test
	void progressIsNotSentWithoutAProgressToken() {
		McpServerTools tools = McpServerTools.builder().tool(tool("index", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					context.progress().report(1, 2.0, "half way");
					return "indexed";
				}))
			.build();

		assertThat(text(call(only(tools), Map.of()))).isEqualTo("indexed");
		assertThat(this.session.notifications).isEmpty();
	}

	@Test
	void twoToolsOfOneNameAreRefused() {
		McpServerTools.Builder builder = McpServerTools.builder()
			.tool(tool("get_weather", ToolMetadata.DEFAULT, (arguments, context) -> "a"));

		assertThatExceptionOfType(ToolDefinitionException.class)
			.isThrownBy(() -> builder.tool(tool("get_weather", ToolMetadata.DEFAULT, (arguments, context) -> "b")))
			.withMessageContaining("Duplicate tool name 'get_weather'");
	}

	private CallToolResult call(AsyncToolSpecification specification, Map<String, Object> arguments) {
		return specification.callHandler()
			.apply(this.exchange, new CallToolRequest(specification.tool().name(), arguments))
			.block(TIMEOUT);
	}

	static AsyncToolSpecification only(McpServerTools tools) {
		assertThat(tools.specifications()).hasSize(1);
		return tools.specifications().get(0);
	}

	static String text(CallToolResult result) {
		assertThat(result.content()).hasSize(1);
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

	/** A tool taking a required {@code city}. */
	static ToolCallback tool(String name, ToolMetadata metadata, Body body) {
		ObjectNode schema = (ObjectNode) AgentJson.mapper()
			.readTree("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}");
		ToolSpec spec = new ToolSpec(name, "Tells the " + name, schema);
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return spec;
			}

			@Override
			public ToolMetadata metadata() {
				return metadata;
			}

			@Override
			public String call(String arguments, ToolContext context) throws Exception {
				return body.apply(arguments, context);
			}

		};
	}

	interface Body {

		String apply(String arguments, ToolContext context) throws Exception;

	}

	record Notification(String method, Object params) {

	}

	/** The client's end of a session, recording the notifications it is sent. */
	static final class RecordingSession implements McpLoggableSession {

		final List<Notification> notifications = new ArrayList<>();

		@Override
		public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
			return Mono.error(new UnsupportedOperationException(method));
		}

		@Override
		public Mono<Void> sendNotification(String method, Object params) {
			return Mono.fromRunnable(() -> {
				synchronized (this.notifications) {
					this.notifications.add(new Notification(method, params));
				}
			});
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

		@Override
		public void close() {
		}

		@Override
		public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
		}

		@Override
		public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
			return true;
		}

	}

}
