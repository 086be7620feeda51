package dev.agcore.mcp;

/**
 * An MCP server answered a tool call with an error result ({@code isError: true}). The
 * message is the server's own text, which the agent feeds back to the model as the
 * tool's error so it can correct its call.
 *
 * @since 0.1.0
 */
public class McpToolException extends McpException {

	public McpToolException(String message) {
		super(message);
	}

}
