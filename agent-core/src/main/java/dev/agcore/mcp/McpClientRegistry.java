package dev.agcore.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSource;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * All configured MCP servers, one {@link McpConnection} each, and the {@link ToolSource}
 * agents get their tools from. Creating a registry does no I/O; {@link #start()}
 * connects every server in parallel.
 * <p>
 * {@link #tools()} returns an immutable snapshot, replaced as a whole when a server
 * connects, reconnects, announces a changed tool list ({@code notifications/tools/list_changed})
 * or is closed: an agent sees a consistent set of tools in each turn. While a server is
 * reconnecting its last known tools stay in the snapshot; calling them waits for the
 * connection, within the server's request timeout. Tool names follow
 * {@code <server><separator><tool>} (separator {@code __} by default), made to fit what
 * model APIs accept; see {@link Builder#toolNameSeparator}.
 *
 * @since 0.1.0
 */
public final class McpClientRegistry implements ToolSource, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(McpClientRegistry.class);

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

	private final Map<String, McpConnection> connections = new LinkedHashMap<>();

	private final McpToolNames names;

	private final AtomicBoolean closed = new AtomicBoolean();

	private volatile List<ToolCallback> tools = List.of();

	private final Object refreshLock = new Object();

	private McpClientRegistry(Builder builder) {
		this.names = new McpToolNames(builder.separator);
		McpJsonMapper mapper = new JacksonMcpJsonMapper(builder.jsonMapper);
		for (McpServerSettings server : builder.servers) {
			this.connections.put(server.name(),
					new McpConnection(server, (settings) -> transport(settings, mapper), this::refresh));
		}
	}

	/**
	 * Start a registry.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Connect every server, in parallel.
	 * @return completes when each server has connected or failed its first attempt; fails
	 * when a {@linkplain McpServerSettings#required() required} server could not connect,
	 * naming every such server and why. Servers that failed keep being retried in the
	 * background.
	 */
	public Mono<Void> start() {
		return start(this.connections.values());
	}

	/**
	 * Connect every server, in parallel, waiting only for the required ones: the others
	 * connect in the background. What an application does at startup, so that a server
	 * it can do without does not delay it.
	 * @return completes when each {@linkplain McpServerSettings#required() required}
	 * server has connected; fails when one could not, naming every such server and why
	 */
	public Mono<Void> startRequired() {
		List<McpConnection> required = new ArrayList<>();
		for (McpConnection connection : this.connections.values()) {
			if (connection.settings().required()) {
				required.add(connection);
			}
			else {
				// its failures are logged and shown in its status; it keeps retrying
				connection.start().subscribe(null, (ex) -> {
				});
			}
		}
		return start(required);
	}

	private Mono<Void> start(Collection<McpConnection> connections) {
		return Flux.fromIterable(connections)
			.flatMap((connection) -> connection.start()
				.then(Mono.<String>empty())
				.onErrorResume((ex) -> Mono.just(connection.settings().required() ? ex.getMessage() : "")),
					Math.max(1, connections.size()))
			.filter((failure) -> !failure.isEmpty())
			.collectList()
			.flatMap((failures) -> failures.isEmpty() ? Mono.empty()
					: Mono.error(new McpException(String.join("; ", failures))));
	}

	@Override
	public List<ToolCallback> tools() {
		return this.tools;
	}

	/**
	 * Return whether a tool of this name would come from one of the servers: it starts
	 * with a server's name and the separator, as the names of their tools do. For checking
	 * settings that name tools before the servers are connected.
	 * @param toolName a tool name as agents see it, such as {@code filesystem__write_file}
	 * @return whether it has the name of a server's tool
	 */
	public boolean mayOffer(String toolName) {
		for (String server : this.connections.keySet()) {
			if (toolName.startsWith(this.names.name(server, ""))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the connection to a server.
	 * @param name the server's configured name
	 * @return the connection, empty if no server has that name
	 */
	public Optional<McpConnection> connection(String name) {
		return Optional.ofNullable(this.connections.get(name));
	}

	/**
	 * Return every connection, in configuration order.
	 * @return the connections
	 */
	public Collection<McpConnection> connections() {
		return List.copyOf(this.connections.values());
	}

	/**
	 * Return the status of every server, in configuration order.
	 * @return the statuses
	 */
	public List<McpServerStatus> statuses() {
		return this.connections.values().stream().map(McpConnection::status).toList();
	}

	/**
	 * Close every connection, stopping stdio servers. Idempotent.
	 * @return completes when all are closed
	 */
	public Mono<Void> closeAsync() {
		if (!this.closed.compareAndSet(false, true)) {
			return Mono.empty();
		}
		return Flux.fromIterable(this.connections.values()).flatMap(McpConnection::close).then();
	}

	/**
	 * Close every connection and wait, at most 10 seconds, unless on a thread that must
	 * not block. Idempotent.
	 */
	@Override
	public void close() {
		Mono<Void> close = closeAsync();
		if (Schedulers.isInNonBlockingThread()) {
			close.subscribe();
			return;
		}
		try {
			close.block(CLOSE_TIMEOUT);
		}
		catch (RuntimeException ex) {
			logger.warn("Closing the MCP connections did not finish within {}", CLOSE_TIMEOUT, LogSafe.throwable(ex));
		}
	}

	// a new snapshot, built whole and swapped in one write
	private void refresh() {
		synchronized (this.refreshLock) {
			List<ToolCallback> snapshot = new ArrayList<>();
			Set<String> taken = new HashSet<>();
			for (McpConnection connection : this.connections.values()) {
				if (connection.status().state() == McpConnectionState.CLOSED) {
					continue;
				}
				for (McpSchema.Tool tool : connection.serverTools()) {
					String name = this.names.name(connection.name(), tool.name());
					if (!taken.add(name)) {
						name = this.names.alternative(connection.name(), tool.name());
						taken.add(name);
					}
					snapshot.add(new McpToolCallback(connection.name(), name, tool, connection.toolCall(),
							connection.settings().trusted()));
				}
			}
			this.tools = List.copyOf(snapshot);
		}
	}

	private static McpClientTransport transport(McpServerSettings settings, McpJsonMapper mapper) {
		McpTransportSettings transport = settings.transport();
		if (transport instanceof McpTransportSettings.Stdio stdio) {
			return new StdioServerTransport(settings.name(), stdio, mapper);
		}
		if (transport instanceof McpTransportSettings.StreamableHttp http) {
			return HttpTransports.streamableHttp(http, mapper);
		}
		return HttpTransports.sse((McpTransportSettings.Sse) transport, mapper);
	}

	/**
	 * Builds an {@link McpClientRegistry}.
	 */
	public static final class Builder {

		private final List<McpServerSettings> servers = new ArrayList<>();

		private String separator = McpToolNames.DEFAULT_SEPARATOR;

		private JsonMapper jsonMapper = JsonMapper.shared();

		private Builder() {
		}

		/**
		 * Add a server.
		 * @param server the server
		 * @return this builder
		 * @throws IllegalArgumentException if a server of that name was added already
		 */
		public Builder server(McpServerSettings server) {
			Objects.requireNonNull(server, "'server' must not be null");
			if (this.servers.stream().anyMatch((existing) -> existing.name().equals(server.name()))) {
				throw new IllegalArgumentException("MCP server '" + server.name() + "' is added twice");
			}
			this.servers.add(server);
			return this;
		}

		/**
		 * Add servers.
		 * @param servers the servers
		 * @return this builder
		 */
		public Builder servers(Collection<McpServerSettings> servers) {
			servers.forEach(this::server);
			return this;
		}

		/**
		 * Set the text between a server's name and its tool's in local tool names,
		 * {@code __} by default: 1 to 8 letters, digits, {@code _} or {@code -}.
		 * @param separator the separator
		 * @return this builder
		 * @throws IllegalArgumentException if it has other characters
		 */
		public Builder toolNameSeparator(String separator) {
			this.separator = McpToolNames.checkSeparator(separator);
			return this;
		}

		/**
		 * Set the mapper MCP messages are read and written with; by default Jackson's
		 * shared one, as the SDK uses.
		 * @param jsonMapper the mapper
		 * @return this builder
		 */
		public Builder jsonMapper(JsonMapper jsonMapper) {
			this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
			return this;
		}

		/**
		 * Build the registry; nothing connects before {@link McpClientRegistry#start()}.
		 * @return the registry
		 */
		public McpClientRegistry build() {
			return new McpClientRegistry(this);
		}

	}

}
