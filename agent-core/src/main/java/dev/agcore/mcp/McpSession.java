package dev.agcore.mcp;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.support.LogSafe;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One initialised SDK client of one server, with the transport under it and the tools
 * it listed. A lost connection is never repaired in place: the connection opens a new
 * session, with a new transport (and for stdio a new process).
 */
final class McpSession {

	private static final Logger logger = LoggerFactory.getLogger(McpSession.class);

	private static final McpSchema.Implementation CLIENT_INFO = new McpSchema.Implementation("agcore",
			"agcore MCP client", version());

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

	private final String server;

	private final TrackedTransport transport;

	private final Listener listener;

	private volatile @Nullable McpAsyncClient client;

	private volatile List<McpSchema.Tool> tools = List.of();

	private final Map<String, Mono<McpSchema.GetPromptResult>> prompts = new ConcurrentHashMap<>();

	private volatile @Nullable Instant connectedAt;

	private McpSession(String server, McpClientTransport transport, Listener listener) {
		this.server = server;
		this.listener = listener;
		this.transport = new TrackedTransport(transport, (error) -> listener.transportError(this, error));
	}

	/**
	 * Connect: start the transport, run the MCP handshake and list the tools. Nothing
	 * happens before subscription.
	 * @param settings the server
	 * @param transport a new transport, used by this session only
	 * @param listener told about notifications and failures
	 * @return the session, or an error saying why it could not be opened
	 */
	static Mono<McpSession> open(McpServerSettings settings, McpClientTransport transport, Listener listener) {
		return Mono.defer(() -> {
			McpSession session = new McpSession(settings.name(), transport, listener);
			McpAsyncClient client = McpClient.async(session.transport)
				.requestTimeout(settings.requestTimeout())
				.initializationTimeout(settings.initializationTimeout())
				.clientInfo(CLIENT_INFO)
				.capabilities(McpSchema.ClientCapabilities.builder().build())
				.toolsChangeConsumer(session::toolsChanged)
				.promptsChangeConsumer((prompts) -> session.promptsChanged())
				.progressConsumer((progress) -> {
					listener.progress(progress);
					return Mono.empty();
				})
				.loggingConsumer((message) -> {
					logger.debug("MCP server '{}' logged at {}: {}", LogSafe.text(settings.name()),
							message.level(), LogSafe.value(message.data()));
					return Mono.empty();
				})
				.build();
			session.client = client;
			Mono<Void> terminated = session.transport.terminated();
			Mono<List<McpSchema.Tool>> connect = client.initialize().then(Mono.defer(session::listTools));
			return Mono.firstWithSignal(connect, terminated.then(Mono.never()))
				.timeout(settings.initializationTimeout().plus(settings.requestTimeout()))
				.map((tools) -> {
					session.tools = tools;
					session.connectedAt = Instant.now();
					// the process exiting from now on breaks the session
					terminated.subscribe(null, (ex) -> listener.broken(session, ex));
					return session;
				})
				.onErrorResume((ex) -> session.close().then(Mono.error(ex)))
				// given up while connecting (closed meanwhile): stop what was started
				.doOnCancel(() -> session.close().subscribe());
		});
	}

	String server() {
		return this.server;
	}

	List<McpSchema.Tool> tools() {
		return this.tools;
	}

	@Nullable Instant connectedAt() {
		return this.connectedAt;
	}

	McpAsyncClient client() {
		McpAsyncClient client = this.client;
		if (client == null) {
			throw new IllegalStateException("session of MCP server '" + this.server + "' is not open");
		}
		return client;
	}

	TrackedTransport transport() {
		return this.transport;
	}

	/** The server's prompt, fetched once per session and arguments. */
	Mono<McpSchema.GetPromptResult> prompt(String name, Map<String, Object> arguments) {
		return this.prompts.computeIfAbsent(name + " " + arguments,
				(key) -> client().getPrompt(new McpSchema.GetPromptRequest(name, arguments)).cache());
	}

	/**
	 * Return whether the server declared the resources capability; the SDK refuses to ask
	 * one that did not for its resources.
	 */
	boolean offersResources() {
		McpSchema.ServerCapabilities capabilities = client().getServerCapabilities();
		return capabilities != null && capabilities.resources() != null;
	}

	// after the handshake, which tells the capabilities: a server without the tools
	// capability has none (the SDK refuses to ask it)
	private Mono<List<McpSchema.Tool>> listTools() {
		McpSchema.ServerCapabilities capabilities = client().getServerCapabilities();
		if (capabilities == null || capabilities.tools() == null) {
			return Mono.just(List.of());
		}
		return McpPages.collect("the tools of MCP server '" + this.server + "'", (cursor) -> client().listTools(cursor),
				McpSchema.ListToolsResult::tools, McpSchema.ListToolsResult::nextCursor);
	}

	private Mono<Void> toolsChanged(List<McpSchema.Tool> tools) {
		// the SDK listed them, following every page
		this.tools = List.copyOf(tools);
		this.listener.toolsChanged(this);
		return Mono.empty();
	}

	private Mono<Void> promptsChanged() {
		this.prompts.clear();
		return Mono.empty();
	}

	/** Close the client gracefully (for stdio: stop the process), within a bound. */
	Mono<Void> close() {
		McpAsyncClient client = this.client;
		Mono<Void> close = (client != null) ? client.closeGracefully() : this.transport.closeGracefully();
		return close.timeout(CLOSE_TIMEOUT).onErrorResume((ex) -> {
			logger.debug("Closing the session of MCP server '{}' failed", LogSafe.text(this.server),
					LogSafe.throwable(ex));
			return Mono.fromRunnable(() -> {
				if (client != null) {
					client.close();
				}
			});
		});
	}

	private static String version() {
		String version = McpSession.class.getPackage().getImplementationVersion();
		return (version != null) ? version : "dev";
	}

	/** What a session tells its connection. */
	interface Listener {

		/** The server announced a changed tool list; the session holds the new one. */
		void toolsChanged(McpSession session);

		/** The transport reported an error, which may or may not mean the session is lost. */
		void transportError(McpSession session, Throwable error);

		/** The session is lost for good (the server process exited). */
		void broken(McpSession session, Throwable cause);

		/** The server reported progress on a request. */
		void progress(McpSchema.ProgressNotification progress);

	}

}
