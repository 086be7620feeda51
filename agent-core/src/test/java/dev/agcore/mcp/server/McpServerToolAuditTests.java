package dev.agcore.mcp.server;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.permission.PermissionDecision;
import dev.agcore.tool.secret.SecretResolver;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import static dev.agcore.mcp.server.McpServerToolsTests.only;
import static dev.agcore.mcp.server.McpServerToolsTests.text;
import static dev.agcore.mcp.server.McpServerToolsTests.tool;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool calls MCP clients make are audited as an agent's are: under the agent name
 * {@value McpServerTools#CALLER} and the MCP session, redacted, once each; and a full
 * audit trail keeps the tool from running.
 */
class McpServerToolAuditTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String SECRET = "tok-93be1d04a7";

	private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

	private final McpAsyncServerExchange exchange = new McpAsyncServerExchange("mcp-session-7",
			new McpServerToolsTests.RecordingSession(), new McpSchema.ClientCapabilities(null, null, null, null),
			new McpSchema.Implementation("test", "1.0"), McpTransportContext.EMPTY);

	@Test
	void aCallThatRanIsAuditedRedactedWithTheMcpSession() {
		McpServerTools tools = McpServerTools.builder()
			.tool(tool("get_weather", ToolMetadata.DEFAULT.withSecretParameters(java.util.Set.of("key")),
					(arguments, context) -> "sunny"))
			.secretResolver(SecretResolver.of(Map.of("KEY", SECRET)))
			.auditor(Auditor.of(this.events::add))
			.build();

		CallToolResult result = call(only(tools),
				Map.of("city", "jane.doe@example.com", "key", "<secret_ref:KEY>", "note", SECRET));

		assertThat(result.isError()).isFalse();
		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.TOOL_CALL);
			assertThat(event.agent()).isEqualTo(McpServerTools.CALLER);
			assertThat(event.sessionId()).isEqualTo("mcp-session-7");
			assertThat(event.tool()).isEqualTo("get_weather");
			assertThat(event.toolCallId()).startsWith("mcp-");
			assertThat(event.outcome()).isEqualTo("success");
			assertThat(event.arguments()).doesNotContain(SECRET, "jane.doe").contains("[REDACTED_EMAIL]");
		});
	}

	@Test
	void aCallThatFailedIsAuditedAsAnError() {
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> {
					throw new IllegalStateException("down");
				}))
			.auditor(Auditor.of(this.events::add))
			.build();

		call(only(tools), Map.of("city", "Paris"));

		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.TOOL_CALL);
			assertThat(event.outcome()).isEqualTo("error");
			assertThat(event.detail()).isEqualTo("IllegalStateException");
		});
	}

	@Test
	void aCallThePolicyDeniedIsAuditedAsDenied() {
		AtomicInteger runs = new AtomicInteger();
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> "run " + runs.incrementAndGet()))
			.permissionPolicy((agent, tool, call) -> PermissionDecision.deny("not over MCP"))
			.auditor(Auditor.of(this.events::add))
			.build();

		call(only(tools), Map.of("city", "Paris"));

		assertThat(runs).hasValue(0);
		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.PERMISSION_DENIED);
			assertThat(event.outcome()).isEqualTo("denied");
			assertThat(event.detail()).isEqualTo("not over MCP");
		});
	}

	@Test
	void aCallThatTimedOutIsAuditedOnceAsATimeout() throws Exception {
		McpServerTools tools = McpServerTools.builder().tool(tool("slow", ToolMetadata.DEFAULT, (arguments, context) -> {
			Thread.sleep(300);
			return "late";
		})).toolTimeout(Duration.ofMillis(50)).auditor(Auditor.of(this.events::add)).build();

		call(only(tools), Map.of("city", "Paris"));
		// the tool ends later: it must not be audited a second time
		Thread.sleep(500);

		assertThat(this.events).singleElement().satisfies((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.TOOL_CALL);
			assertThat(event.outcome()).isEqualTo("timeout");
		});
	}

	@Test
	void aToolDoesNotRunWhileTheAuditTrailCannotRecordIt() {
		AtomicInteger runs = new AtomicInteger();
		McpServerTools tools = McpServerTools.builder().tool(tool("get_weather", ToolMetadata.DEFAULT,
				(arguments, context) -> "run " + runs.incrementAndGet()))
			.auditor(Auditor.of(this.events::add).withGate(() -> "the audit trail cannot record it now"))
			.build();

		CallToolResult result = call(only(tools), Map.of("city", "Paris"));

		assertThat(runs).hasValue(0);
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Tool 'get_weather' was not run: the audit trail cannot record it now");
		assertThat(this.events).singleElement()
			.satisfies((event) -> assertThat(event.kind()).isEqualTo(AuditEvent.Kind.PERMISSION_DENIED));
	}

	private CallToolResult call(AsyncToolSpecification specification, Map<String, Object> arguments) {
		return specification.callHandler()
			.apply(this.exchange, new CallToolRequest(specification.tool().name(), arguments))
			.block(TIMEOUT);
	}

}
