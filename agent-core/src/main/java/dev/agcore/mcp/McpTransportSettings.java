package dev.agcore.mcp;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How to reach an MCP server: {@link Stdio} starts a local process,
 * {@link StreamableHttp} and the older {@link Sse} talk to a running server.
 *
 * @since 0.1.0
 */
public sealed interface McpTransportSettings {

	/** Default time to open a TCP connection to an HTTP server. */
	Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Return the transport's name as written in configuration.
	 * @return {@code stdio}, {@code streamable-http} or {@code sse}
	 */
	String kind();

	/**
	 * Start the server as a child process and talk to it over its standard input and
	 * output. The child's environment is only {@code PATH} and {@code HOME} of this
	 * process (on Windows also {@code PATHEXT}, {@code SYSTEMROOT}, {@code TEMP},
	 * {@code TMP} and {@code USERPROFILE}), then {@code env}: nothing else of this
	 * process's environment, which may hold secrets, reaches it.
	 *
	 * @param command the program to run, from configuration only, never from a model
	 * @param args its arguments
	 * @param env environment variables to set for it; they win over the inherited ones
	 * @param workingDirectory the directory to start it in, or {@code null} for this
	 * process's
	 */
	record Stdio(String command, List<String> args, Map<String, String> env,
			@Nullable Path workingDirectory) implements McpTransportSettings {

		public Stdio {
			Objects.requireNonNull(command, "'command' must not be null");
			if (command.isBlank()) {
				throw new IllegalArgumentException("'command' must not be blank");
			}
			args = List.copyOf(args);
			env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
		}

		@Override
		public String kind() {
			return "stdio";
		}

		// the environment may hold secrets: only its names are shown
		@Override
		public String toString() {
			return "Stdio[command=" + this.command + ", args=" + this.args + ", env=" + this.env.keySet()
					+ ", workingDirectory=" + this.workingDirectory + "]";
		}

	}

	/**
	 * Talk to a running server over the streamable HTTP transport.
	 *
	 * @param url the server's root URL, such as {@code http://localhost:3001}
	 * @param endpoint the path of the MCP endpoint, such as {@code /mcp}
	 * @param headers headers sent with every request, such as {@code Authorization}
	 * @param connectTimeout how long opening a TCP connection may take
	 */
	record StreamableHttp(URI url, String endpoint, Map<String, String> headers,
			Duration connectTimeout) implements McpTransportSettings {

		/** The endpoint when the URL names none. */
		public static final String DEFAULT_ENDPOINT = "/mcp";

		public StreamableHttp {
			url = HttpUrls.root(url);
			endpoint = HttpUrls.endpoint(endpoint);
			headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
			HttpUrls.positive(connectTimeout, "connectTimeout");
		}

		/**
		 * Create settings from a URL; its path, if any, is the endpoint.
		 * @param url the URL of the MCP endpoint, such as {@code http://localhost:3001/mcp}
		 * @return the settings
		 */
		public static StreamableHttp of(String url) {
			URI uri = URI.create(url);
			return new StreamableHttp(uri, HttpUrls.pathOr(uri, DEFAULT_ENDPOINT), Map.of(),
					DEFAULT_CONNECT_TIMEOUT);
		}

		@Override
		public String kind() {
			return "streamable-http";
		}

		/**
		 * Return these settings with headers sent on every request.
		 * @param headers the headers
		 * @return the settings
		 */
		public StreamableHttp withHeaders(Map<String, String> headers) {
			return new StreamableHttp(this.url, this.endpoint, headers, this.connectTimeout);
		}

		// header values may be credentials: only their names are shown
		@Override
		public String toString() {
			return "StreamableHttp[url=" + this.url + ", endpoint=" + this.endpoint + ", headers="
					+ this.headers.keySet() + "]";
		}

	}

	/**
	 * Talk to a running server over the HTTP with SSE transport of protocol version
	 * 2024-11-05, which streamable HTTP replaced; for servers that have not moved on.
	 *
	 * @param url the server's root URL, such as {@code http://localhost:3001}
	 * @param endpoint the path of the SSE endpoint, such as {@code /sse}
	 * @param headers headers sent with every request
	 * @param connectTimeout how long opening a TCP connection may take
	 */
	record Sse(URI url, String endpoint, Map<String, String> headers,
			Duration connectTimeout) implements McpTransportSettings {

		/** The endpoint when the URL names none. */
		public static final String DEFAULT_ENDPOINT = "/sse";

		public Sse {
			url = HttpUrls.root(url);
			endpoint = HttpUrls.endpoint(endpoint);
			headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
			HttpUrls.positive(connectTimeout, "connectTimeout");
		}

		/**
		 * Create settings from a URL; its path, if any, is the SSE endpoint.
		 * @param url the URL of the SSE endpoint, such as {@code http://localhost:3001/sse}
		 * @return the settings
		 */
		public static Sse of(String url) {
			URI uri = URI.create(url);
			return new Sse(uri, HttpUrls.pathOr(uri, DEFAULT_ENDPOINT), Map.of(), DEFAULT_CONNECT_TIMEOUT);
		}

		@Override
		public String kind() {
			return "sse";
		}

		@Override
		public String toString() {
			return "Sse[url=" + this.url + ", endpoint=" + this.endpoint + ", headers=" + this.headers.keySet() + "]";
		}

	}

}
