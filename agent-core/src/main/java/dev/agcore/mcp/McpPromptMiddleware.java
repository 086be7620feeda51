package dev.agcore.mcp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import reactor.core.publisher.Mono;

/**
 * Makes an MCP server's prompt an agent's system prompt: before each model call the
 * request's system prompt is replaced by the text of the prompt's messages
 * ({@link McpPromptResult#text()}).
 * <p>
 * The prompt is fetched at the first model call after the server connects and cached
 * for that connection: fetched again only after the server reconnects or announces a
 * changed prompt list. While the server is not connected the model call waits for it,
 * within the server's request timeout, then the turn fails with an {@link McpException}
 * naming the server: an agent never runs without the instructions it was given.
 *
 * @since 0.1.0
 */
public final class McpPromptMiddleware implements AgentMiddleware {

	private final McpConnection connection;

	private final String prompt;

	private final Map<String, String> arguments;

	/**
	 * Create the middleware.
	 * @param connection the server
	 * @param prompt the prompt's name on the server
	 * @param arguments the prompt's arguments
	 */
	public McpPromptMiddleware(McpConnection connection, String prompt, Map<String, String> arguments) {
		this.connection = Objects.requireNonNull(connection, "'connection' must not be null");
		this.prompt = Objects.requireNonNull(prompt, "'prompt' must not be null");
		this.arguments = Map.copyOf(new LinkedHashMap<>(arguments));
	}

	@Override
	public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
		return this.connection.getCachedPrompt(this.prompt, this.arguments)
			.map((result) -> request.withSystemPrompt(result.text()));
	}

	@Override
	public String name() {
		return "mcp-prompt(" + this.connection.name() + "/" + this.prompt + ")";
	}

}
