package dev.agcore.mcp.server;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import static dev.agcore.mcp.server.McpServerToolsTests.only;
import static dev.agcore.mcp.server.McpServerToolsTests.text;
import static dev.agcore.mcp.server.McpServerToolsTests.tool;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for agents offered over MCP as tools: a message in, the turn's answer out.
 */
class McpServerAgentToolTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final McpAsyncServerExchange exchange = new McpAsyncServerExchange("mcp-session-1",
			new McpServerToolsTests.RecordingSession(), new McpSchema.ClientCapabilities(null, null, null, null),
			new McpSchema.Implementation("test", "1.0"), McpTransportContext.EMPTY);

	@Test
	void agentIsAToolOfItsNameTakingAMessageAndAnOptionalSession() {
		McpSchema.Tool tool = only(McpServerTools.builder().agent(agent(ScriptedChatModel.replaying())).build())
			.tool();

		assertThat(tool.name()).isEqualTo("assistant");
		assertThat(tool.description()).contains("'assistant'").contains("sessionId");
		assertThat((Map<String, Object>) tool.inputSchema().get("properties")).containsOnlyKeys("message", "sessionId");
		assertThat((List<Object>) tool.inputSchema().get("required")).containsExactly("message");
		assertThat(tool.inputSchema()).containsEntry("additionalProperties", false);
		assertThat(tool.outputSchema()).containsKey("properties");
	}

	@Test
	void agentAnswersWithTheTextOfItsTurnInTheSessionGiven() {
		Agent agent = agent(ScriptedChatModel.replaying(text("Paris is sunny.")));

		CallToolResult result = call(agent, Map.of("message", "Weather in Paris?", "sessionId", "trip-1"));

		assertThat(result.isError()).isFalse();
		assertThat(text(result)).isEqualTo("Paris is sunny.");
		assertThat(result.structuredContent())
			.isEqualTo(Map.of("answer", "Paris is sunny.", "sessionId", "trip-1", "status", "completed"));
		assertThat(this.store.load("trip-1").block(TIMEOUT).messages()).extracting(Message::text)
			.containsExactly("Weather in Paris?", "Paris is sunny.");
	}

	@Test
	void callWithoutSessionStartsANewConversationEachTime() {
		Agent agent = agent(ScriptedChatModel.replaying(text("One."), text("Two.")));

		Object first = structured(call(agent, Map.of("message", "Hi"))).get("sessionId");
		Object second = structured(call(agent, Map.of("message", "Hi again"))).get("sessionId");

		assertThat(first).isNotEqualTo(second).isNotEqualTo("mcp-session-1");
		assertThat(this.store.load((String) second).block(TIMEOUT).messages()).hasSize(2);
	}

	@Test
	void turnPausedForApprovalIsNoErrorAndSaysWhatWaitsInWhichSession() {
		Agent agent = Agent.builder()
			.name("files")
			.model(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}"))))
			.conversationStore(this.store)
			.tool(tool("delete_file", ToolMetadata.DEFAULT.withPermission(ToolPermission.DESTRUCTIVE),
					(arguments, context) -> "deleted"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();

		CallToolResult result = call(agent, Map.of("message", "Delete it", "sessionId", "s-9"));

		assertThat(result.isError()).isFalse();
		assertThat(text(result)).contains("delete_file").contains("'s-9'").contains("approves or rejects");
		assertThat(structured(result)).containsEntry("status", "interrupted").containsEntry("sessionId", "s-9");
		assertThat(this.store.loadPending("s-9").block(TIMEOUT)).isNotNull();
	}

	@Test
	void nextMessageWhileATurnWaitsForApprovalIsAConflict() {
		Agent agent = Agent.builder()
			.name("files")
			.model(ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete_file", "{}"))))
			.conversationStore(this.store)
			.tool(tool("delete_file", ToolMetadata.DEFAULT, (arguments, context) -> "deleted"))
			.middleware(new HumanInTheLoopMiddleware(Map.of("delete_file", "deletes data")))
			.build();
		call(agent, Map.of("message", "Delete it", "sessionId", "s-9"));

		CallToolResult result = call(agent, Map.of("message", "Well?", "sessionId", "s-9"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).startsWith("conflict: ");
	}

	@Test
	void failedTurnIsAnErrorResultWithItsCodeAndNoAddress() {
		Agent agent = agent(ScriptedChatModel.answering((request) -> {
			throw new ModelConnectionException("openai", "Connection refused: /10.0.0.7:443",
					new IOException("refused"));
		}));

		CallToolResult result = call(agent, Map.of("message", "Hi"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("model_error: The connection to the model provider 'openai' failed");
	}

	@Test
	void unexpectedFailureSaysOnlyThatTheServerLogHasTheDetails() {
		Agent agent = agent(ScriptedChatModel.answering((request) -> {
			throw new IllegalStateException("bug at Foo.java:12");
		}));

		CallToolResult result = call(agent, Map.of("message", "Hi"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).startsWith("internal_error: ").doesNotContain("Foo.java");
	}

	@Test
	void missingMessageIsAnInvalidArgumentAndRunsNoTurn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("never"));

		CallToolResult result = call(agent(model), Map.of("sessionId", "s-1"));

		assertThat(result.isError()).isTrue();
		assertThat(text(result))
			.isEqualTo("Invalid arguments for agent 'assistant': 'message' is required and must be a non-blank string");
		assertThat(model.requests()).isEmpty();
	}

	@Test
	void sessionIdThatIsNoStringIsAnInvalidArgument() {
		CallToolResult result = call(agent(ScriptedChatModel.replaying(text("never"))),
				Map.of("message", "Hi", "sessionId", 42));

		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("'sessionId' must be a non-blank string of at most 256 characters");
	}

	@Test
	void agentIsReadOnlyOnlyWhenAllItsToolsAre() {
		assertThat(ExposedAgent.annotations(java.util.List.of(
				tool("a", ToolMetadata.DEFAULT.withPermission(ToolPermission.READ_ONLY), (arguments, context) -> ""))))
			.isEqualTo(new McpSchema.ToolAnnotations(null, true, null, null, null, null));
		assertThat(ExposedAgent.annotations(java.util.List.of(
				tool("a", ToolMetadata.DEFAULT.withPermission(ToolPermission.READ_ONLY), (arguments, context) -> ""),
				tool("b", ToolMetadata.DEFAULT.withPermission(ToolPermission.DESTRUCTIVE), (arguments, context) -> ""))))
			.isEqualTo(new McpSchema.ToolAnnotations(null, false, true, null, null, null));
	}

	@Test
	void agentAndToolOfOneNameAreRefused() {
		McpServerTools.Builder builder = McpServerTools.builder()
			.tool(tool("assistant", ToolMetadata.DEFAULT, (arguments, context) -> ""))
			.agent(agent(ScriptedChatModel.replaying()));

		assertThatExceptionOfType(ToolDefinitionException.class).isThrownBy(builder::build)
			.withMessageContaining("would both be the MCP tool 'assistant'");
	}

	private Agent agent(ScriptedChatModel model) {
		return Agent.builder().name("assistant").model(model).conversationStore(this.store).build();
	}

	private CallToolResult call(Agent agent, Map<String, Object> arguments) {
		return only(McpServerTools.builder().agent(agent).build()).callHandler()
			.apply(this.exchange, new CallToolRequest(agent.name(), arguments))
			.block(TIMEOUT);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> structured(CallToolResult result) {
		return (Map<String, Object>) result.structuredContent();
	}

}
