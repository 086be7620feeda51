package dev.agcore.mcp.server;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.TurnFailure;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolPermission;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * An agent offered over MCP as a tool named after it: a {@code message} (and an optional
 * {@code sessionId}) in, one turn of the agent, its answer out. The turn runs on the
 * agent's reactive API; nothing here blocks.
 * <p>
 * The answer is the result's text. Its structured content repeats it with the session id
 * and how the turn ended ({@code completed}, {@code interrupted},
 * {@code max_iterations_reached}). A turn paused for human approval is not an error: the
 * text says what waits for a decision and in which session. A failed turn is an error
 * result {@code <code>: <message>}, with the codes of {@link TurnFailure}.
 */
final class ExposedAgent implements BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> {

	static final String MESSAGE = "message";

	static final String SESSION_ID = "sessionId";

	private static final Logger logger = LoggerFactory.getLogger(ExposedAgent.class);

	private static final String INPUT_SCHEMA = """
			{"type": "object",
			 "properties": {
			  "message": {"type": "string", "description": "What to say to the agent"},
			  "sessionId": {"type": "string", "maxLength": %d,
			   "description": "The conversation to continue: the sessionId of an earlier answer, or any id \
			of your choosing that you reuse. Omit it to start a new conversation."}},
			 "required": ["message"],
			 "additionalProperties": false}""".formatted(AgentRequest.MAX_SESSION_ID_LENGTH);

	private static final String OUTPUT_SCHEMA = """
			{"type": "object",
			 "properties": {
			  "answer": {"type": "string"},
			  "sessionId": {"type": "string"},
			  "status": {"type": "string", "enum": ["completed", "interrupted", "max_iterations_reached"]}},
			 "required": ["answer", "sessionId", "status"]}""";

	private final Agent agent;

	ExposedAgent(Agent agent) {
		this.agent = agent;
	}

	/**
	 * Describe an agent as MCP clients see it.
	 * @param agent the agent
	 * @param mapper reads the schemas
	 * @return the description
	 */
	static McpSchema.Tool describe(Agent agent, McpJsonMapper mapper) {
		return McpSchema.Tool.builder()
			.name(agent.name())
			.title("Agent " + agent.name())
			.description("Asks the agent '" + agent.name() + "' and returns its answer. Send the same sessionId "
					+ "again to continue a conversation; without one, each call starts a new conversation.")
			.inputSchema(mapper, INPUT_SCHEMA)
			.outputSchema(mapper, OUTPUT_SCHEMA)
			.annotations(annotations(agent.toolCallbacks()))
			.build();
	}

	/**
	 * The hints of an agent are those of the tools it may call: read-only if all of them
	 * are, possibly destructive if any is (or has a custom permission).
	 */
	static McpSchema.ToolAnnotations annotations(List<ToolCallback> tools) {
		boolean readOnly = true;
		boolean destructive = false;
		for (ToolCallback tool : tools) {
			ToolPermission permission = tool.metadata().permission();
			readOnly &= permission.equals(ToolPermission.READ_ONLY);
			destructive |= permission.equals(ToolPermission.DESTRUCTIVE) || permission.isCustom();
		}
		return readOnly ? ExposedTool.hints(true, null) : ExposedTool.hints(false, destructive);
	}

	@Override
	public Mono<CallToolResult> apply(McpAsyncServerExchange exchange, CallToolRequest request) {
		return Mono.defer(() -> {
			Map<String, Object> arguments = (request.arguments() != null) ? request.arguments() : Map.of();
			if (!(arguments.get(MESSAGE) instanceof String message) || message.isBlank()) {
				return Mono.just(invalid("'" + MESSAGE + "' is required and must be a non-blank string"));
			}
			Object session = arguments.get(SESSION_ID);
			if (session != null && (!(session instanceof String id) || id.isBlank()
					|| id.length() > AgentRequest.MAX_SESSION_ID_LENGTH)) {
				return Mono.just(invalid("'" + SESSION_ID + "' must be a non-blank string of at most "
						+ AgentRequest.MAX_SESSION_ID_LENGTH + " characters"));
			}
			String sessionId = (session != null) ? (String) session : McpServerTools.sessionId();
			return this.agent.invoke(AgentRequest.of(sessionId, message))
				.map(this::result)
				.switchIfEmpty(Mono.fromSupplier(() -> unexpected(
						new IllegalStateException("Agent '" + this.agent.name() + "' completed without a result"))));
		}).onErrorResume((ex) -> Mono.just(failure(ex)));
	}

	private CallToolResult result(AgentResult result) {
		String answer = result.isInterrupted() ? pending(result) : result.output();
		return CallResults.structured(answer, Map.of("answer", answer, "sessionId", result.sessionId(), "status",
				result.status().name().toLowerCase(Locale.ROOT)));
	}

	private String pending(AgentResult result) {
		List<String> tools = result.pendingToolCalls().stream().map(PendingToolCall::name).distinct().toList();
		return "Agent '" + this.agent.name() + "' paused this turn until a person approves or rejects its call of "
				+ String.join(", ", tools) + ". The decision is made in the application, not over MCP; the turn "
				+ "then finishes in session '" + result.sessionId()
				+ "', which the next message with this sessionId continues.";
	}

	private CallToolResult invalid(String message) {
		return CallResults.error("Invalid arguments for agent '" + this.agent.name() + "': " + message);
	}

	private CallToolResult failure(Throwable ex) {
		TurnFailure failure = TurnFailure.of(ex);
		if (failure == null) {
			return unexpected(ex);
		}
		// the whole message, for the server log only; a timeout's trace would show the timer
		logger.warn("MCP call of agent '{}' failed: {}", LogSafe.text(this.agent.name()), LogSafe.text(ex.toString()));
		return CallResults.error(failure.code() + ": " + failure.message());
	}

	private CallToolResult unexpected(Throwable ex) {
		logger.error("MCP call of agent '{}' failed", LogSafe.text(this.agent.name()), LogSafe.throwable(ex));
		return CallResults.error("internal_error: The agent failed unexpectedly; the server log has the details");
	}

}
