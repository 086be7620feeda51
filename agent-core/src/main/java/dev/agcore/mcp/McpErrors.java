package dev.agcore.mcp;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * Short descriptions of what went wrong with an MCP server, for exception messages, the
 * connection status and logs: a JSON-RPC error's message and code, otherwise the
 * innermost cause's message. Never request headers or environment variables, which the
 * SDK's exceptions do not carry.
 */
final class McpErrors {

	private static final int MAX_LENGTH = 500;

	private McpErrors() {
	}

	static String describe(Throwable failure) {
		if (failure instanceof McpError error && error.getJsonRpcError() != null) {
			McpSchema.JSONRPCResponse.JSONRPCError json = error.getJsonRpcError();
			String data = (json.data() != null) ? " " + json.data() : "";
			return bounded(json.message() + data + " (JSON-RPC error " + json.code() + ")");
		}
		if (failure instanceof McpException) {
			return bounded(String.valueOf(failure.getMessage()));
		}
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getMessage();
		String type = root.getClass().getSimpleName();
		if (root != failure && failure.getMessage() != null && !(message != null && failure.getMessage().contains(message))) {
			message = failure.getMessage() + ((message != null) ? ": " + message : "");
		}
		return bounded((message != null && !message.isBlank()) ? type + ": " + message : type);
	}

	private static String bounded(String text) {
		return (text.length() <= MAX_LENGTH) ? text : text.substring(0, MAX_LENGTH) + "...";
	}

}
