package dev.agcore.mcp;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One MCP server to connect to, and how.
 *
 * @param name the server's name, unique among the servers: letters, digits, {@code _},
 * {@code -} and {@code .}; it prefixes its tools' names and selects them in tool scopes
 * ({@code mcp:<name>/*})
 * @param transport how to reach the server
 * @param required whether the application must not start without it: when {@code true}
 * a server that cannot connect fails {@link McpClientRegistry#start()}; otherwise it is
 * retried in the background
 * @param requestTimeout how long one request (a tool call, a listing) may take,
 * including waiting for a connection that is being re-established
 * @param initializationTimeout how long connecting and the MCP handshake may take
 * @param initialBackoff the wait before the first retry after a failed or lost connection
 * @param maxBackoff the longest wait between retries; the wait doubles from the initial
 * one up to this
 * @param trusted whether the server's tool annotations are believed: the MCP
 * specification says annotations from untrusted servers are untrusted, so only a trusted
 * server's {@code readOnlyHint} (and {@code destructiveHint: false}) make a tool
 * read-only (or write); every tool of an untrusted server is destructive
 * @since 0.1.0
 */
public record McpServerSettings(String name, McpTransportSettings transport, boolean required,
		Duration requestTimeout, Duration initializationTimeout, Duration initialBackoff, Duration maxBackoff,
		boolean trusted) {

	/** Default time a request may take. */
	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

	/** Default time connecting and the handshake may take. */
	public static final Duration DEFAULT_INITIALIZATION_TIMEOUT = Duration.ofSeconds(20);

	/** Default wait before the first retry. */
	public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);

	/** Default longest wait between retries. */
	public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

	public McpServerSettings {
		Objects.requireNonNull(name, "'name' must not be null");
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("MCP server name '" + name
					+ "' must start with a letter or digit and hold only letters, digits, '_', '-' and '.'");
		}
		Objects.requireNonNull(transport, "'transport' must not be null");
		HttpUrls.positive(requestTimeout, "requestTimeout");
		HttpUrls.positive(initializationTimeout, "initializationTimeout");
		HttpUrls.positive(initialBackoff, "initialBackoff");
		HttpUrls.positive(maxBackoff, "maxBackoff");
		if (maxBackoff.compareTo(initialBackoff) < 0) {
			throw new IllegalArgumentException(
					"'maxBackoff' (" + maxBackoff + ") must not be shorter than 'initialBackoff' (" + initialBackoff + ")");
		}
	}

	/**
	 * Create the settings of an optional, untrusted server with the default timeouts and
	 * backoff.
	 * @param name the server's name
	 * @param transport how to reach it
	 * @return the settings
	 */
	public static McpServerSettings of(String name, McpTransportSettings transport) {
		return new McpServerSettings(name, transport, false, DEFAULT_REQUEST_TIMEOUT, DEFAULT_INITIALIZATION_TIMEOUT,
				DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, false);
	}

	public McpServerSettings withRequired(boolean required) {
		return new McpServerSettings(this.name, this.transport, required, this.requestTimeout,
				this.initializationTimeout, this.initialBackoff, this.maxBackoff, this.trusted);
	}

	public McpServerSettings withRequestTimeout(Duration requestTimeout) {
		return new McpServerSettings(this.name, this.transport, this.required, requestTimeout,
				this.initializationTimeout, this.initialBackoff, this.maxBackoff, this.trusted);
	}

	public McpServerSettings withInitializationTimeout(Duration initializationTimeout) {
		return new McpServerSettings(this.name, this.transport, this.required, this.requestTimeout,
				initializationTimeout, this.initialBackoff, this.maxBackoff, this.trusted);
	}

	/**
	 * Return these settings with another reconnect backoff.
	 * @param initialBackoff the wait before the first retry
	 * @param maxBackoff the longest wait between retries
	 * @return the settings
	 */
	public McpServerSettings withBackoff(Duration initialBackoff, Duration maxBackoff) {
		return new McpServerSettings(this.name, this.transport, this.required, this.requestTimeout,
				this.initializationTimeout, initialBackoff, maxBackoff, this.trusted);
	}

	/**
	 * Return these settings with the server trusted or not: whether its tool annotations
	 * are believed.
	 * @param trusted whether the server is trusted
	 * @return the settings
	 */
	public McpServerSettings withTrusted(boolean trusted) {
		return new McpServerSettings(this.name, this.transport, this.required, this.requestTimeout,
				this.initializationTimeout, this.initialBackoff, this.maxBackoff, trusted);
	}

}
