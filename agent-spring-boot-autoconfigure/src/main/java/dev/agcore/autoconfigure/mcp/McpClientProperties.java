package dev.agcore.autoconfigure.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the MCP servers agents use. {@code agent.mcp.server.*}
 * (singular) configures the application's own MCP server and is not bound here.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.mcp")
public class McpClientProperties {

	/**
	 * MCP servers whose tools, resources and prompts agents use, by name. The name
	 * prefixes the server's tools ("<name>__<tool>") and selects them in an agent's tools
	 * ("mcp:<name>/*").
	 */
	private Map<String, Server> servers = new LinkedHashMap<>();

	/**
	 * Text between a server's name and its tool's name in the tool names models see: 1
	 * to 8 letters, digits, "_" or "-".
	 */
	private String toolNameSeparator = "__";

	public Map<String, Server> getServers() {
		return this.servers;
	}

	public void setServers(Map<String, Server> servers) {
		this.servers = servers;
	}

	public String getToolNameSeparator() {
		return this.toolNameSeparator;
	}

	public void setToolNameSeparator(String toolNameSeparator) {
		this.toolNameSeparator = toolNameSeparator;
	}

	/**
	 * One MCP server.
	 */
	public static class Server {

		/**
		 * How to reach the server: "stdio" (start it as a child process),
		 * "streamable-http" or "sse" (the HTTP transport of protocol version 2024-11-05).
		 */
		private @Nullable String transport;

		/**
		 * Program that starts a stdio server, such as "npx" or "/usr/local/bin/server".
		 * Only ever from configuration, never from a model.
		 */
		private @Nullable String command;

		/**
		 * Arguments of the command of a stdio server.
		 */
		private List<String> args = new ArrayList<>();

		/**
		 * Environment variables of a stdio server. The server process gets these and PATH
		 * and HOME of the application, nothing else of its environment. Values may be
		 * ${...} placeholders.
		 */
		private Map<String, String> env = new LinkedHashMap<>();

		/**
		 * Directory a stdio server starts in. The application's working directory when
		 * not set.
		 */
		private @Nullable String workingDirectory;

		/**
		 * URL of an HTTP server's MCP endpoint, such as "http://localhost:3001/mcp" (for
		 * "sse", the SSE endpoint, such as "http://localhost:3001/sse").
		 */
		private @Nullable String url;

		/**
		 * Path of the endpoint, overriding the path of the URL. "/mcp" for
		 * streamable-http and "/sse" for sse when neither sets one.
		 */
		private @Nullable String endpoint;

		/**
		 * Headers sent with every request to an HTTP server, such as "Authorization".
		 * Values may be ${...} placeholders, resolved from the environment.
		 */
		private Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * Time opening a connection to an HTTP server may take.
		 */
		private Duration connectTimeout = McpTransportSettings.DEFAULT_CONNECT_TIMEOUT;

		/**
		 * Whether the application must not start without this server. A required server
		 * that cannot connect fails startup; any other is retried in the background.
		 */
		private boolean required;

		/**
		 * Whether the server's tool annotations are believed. The MCP specification says
		 * annotations from untrusted servers are untrusted: every tool of an untrusted
		 * server is destructive, which an agent calls only when a rule names it. A trusted
		 * server's readOnlyHint makes a tool read-only, and its destructiveHint false makes
		 * it write; a tool that says neither is destructive.
		 */
		private boolean trusted;

		/**
		 * Time one request to the server (a tool call, a listing) may take, including
		 * waiting for a connection being re-established. A tool call is also bounded by
		 * the agent's tool-timeout.
		 */
		private Duration requestTimeout = McpServerSettings.DEFAULT_REQUEST_TIMEOUT;

		/**
		 * Time connecting and the MCP handshake may take.
		 */
		private Duration initializationTimeout = McpServerSettings.DEFAULT_INITIALIZATION_TIMEOUT;

		/**
		 * How the server is reconnected after a failed or lost connection.
		 */
		private final Reconnect reconnect = new Reconnect();

		public @Nullable String getTransport() {
			return this.transport;
		}

		public void setTransport(@Nullable String transport) {
			this.transport = transport;
		}

		public @Nullable String getCommand() {
			return this.command;
		}

		public void setCommand(@Nullable String command) {
			this.command = command;
		}

		public List<String> getArgs() {
			return this.args;
		}

		public void setArgs(List<String> args) {
			this.args = args;
		}

		public Map<String, String> getEnv() {
			return this.env;
		}

		public void setEnv(Map<String, String> env) {
			this.env = env;
		}

		public @Nullable String getWorkingDirectory() {
			return this.workingDirectory;
		}

		public void setWorkingDirectory(@Nullable String workingDirectory) {
			this.workingDirectory = workingDirectory;
		}

		public @Nullable String getUrl() {
			return this.url;
		}

		public void setUrl(@Nullable String url) {
			this.url = url;
		}

		public @Nullable String getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(@Nullable String endpoint) {
			this.endpoint = endpoint;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public void setHeaders(Map<String, String> headers) {
			this.headers = headers;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public boolean isTrusted() {
			return this.trusted;
		}

		public void setTrusted(boolean trusted) {
			this.trusted = trusted;
		}

		public boolean isRequired() {
			return this.required;
		}

		public void setRequired(boolean required) {
			this.required = required;
		}

		public Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		public Duration getInitializationTimeout() {
			return this.initializationTimeout;
		}

		public void setInitializationTimeout(Duration initializationTimeout) {
			this.initializationTimeout = initializationTimeout;
		}

		public Reconnect getReconnect() {
			return this.reconnect;
		}

	}

	/**
	 * Reconnection of a server.
	 */
	public static class Reconnect {

		/**
		 * Wait before the first retry after a failed attempt; the wait doubles with each
		 * failure up to max-backoff. A lost connection is retried at once first.
		 */
		private Duration initialBackoff = McpServerSettings.DEFAULT_INITIAL_BACKOFF;

		/**
		 * Longest wait between retries.
		 */
		private Duration maxBackoff = McpServerSettings.DEFAULT_MAX_BACKOFF;

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

	}

}
