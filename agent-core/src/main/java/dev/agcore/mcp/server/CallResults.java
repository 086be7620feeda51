package dev.agcore.mcp.server;

import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * The results an exposed tool or agent answers a {@code tools/call} with.
 */
final class CallResults {

	private CallResults() {
	}

	/** A result whose text is the answer. */
	static CallToolResult text(String text) {
		return CallToolResult.builder().addTextContent(text).isError(false).build();
	}

	/** A result whose text is the answer, and the same answer as structured content. */
	static CallToolResult structured(String text, Map<String, Object> structured) {
		return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false).build();
	}

	/**
	 * A failed call: MCP reports what went wrong inside the result, so that the model
	 * calling the tool sees it, rather than as a protocol error.
	 */
	static CallToolResult error(String text) {
		return CallToolResult.builder().addTextContent(text).isError(true).build();
	}

}
