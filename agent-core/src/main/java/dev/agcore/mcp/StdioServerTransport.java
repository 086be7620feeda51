package dev.agcore.mcp;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import dev.agcore.support.LogSafe;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The SDK's stdio transport, with three things it does not do on its own:
 * <ul>
 * <li>the child's environment is only {@code PATH} and {@code HOME} (plus a few system
 * variables on Windows) and the configured variables: the SDK's process builder would
 * start from this whole process's environment, and its {@link ServerParameters} add
 * {@code LOGNAME}, {@code SHELL}, {@code TERM} and {@code USER};</li>
 * <li>its standard error is logged at debug, each line cut to
 * {@value #MAX_LINE_LENGTH} characters, and its last lines kept for error messages
 * (the SDK logs it at info). Best effort: the SDK stops reading standard error once
 * standard output closes, so the last words of a process that dies within milliseconds
 * of starting may be lost;</li>
 * <li>the child's exit is reported through {@link #terminated()}, and a failure to
 * start it is an error of {@link #connect} naming the server: the SDK (2.0) notices
 * neither, so requests would wait for their timeout;</li>
 * <li>messages sent from several threads at once (parallel tool calls, reading several
 * resources) are sent one at a time: the SDK's unicast sink refuses a concurrent emission
 * with "Failed to enqueue message" (modelcontextprotocol/java-sdk#875, fixed after 2.0.1).</li>
 * </ul>
 * One instance starts one process: a reconnection creates a new transport.
 */
final class StdioServerTransport extends StdioClientTransport {

	static final int MAX_LINE_LENGTH = 500;

	private static final int KEPT_LINES = 5;

	private static final long STDERR_DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private static final Logger logger = LoggerFactory.getLogger(StdioServerTransport.class);

	private static final List<String> INHERITED = System.getProperty("os.name", "")
		.toLowerCase(Locale.ROOT)
		.contains("win") ? List.of("PATH", "PATHEXT", "SYSTEMROOT", "TEMP", "TMP", "USERPROFILE")
				: List.of("PATH", "HOME");

	private final String server;

	private final McpTransportSettings.Stdio settings;

	private final Sinks.Empty<Void> terminated = Sinks.empty();

	private final Deque<String> lastLines = new ArrayDeque<>();

	private volatile boolean closing;

	StdioServerTransport(String server, McpTransportSettings.Stdio settings, McpJsonMapper mapper) {
		super(parameters(settings, System.getenv()), mapper);
		this.server = server;
		this.settings = settings;
		setStdErrorHandler(this::stderr);
	}

	/**
	 * The SDK's parameters with exactly the environment the child gets. The SDK keeps
	 * the variables in a map of its own, filled with some of this process's variables
	 * when it is built; it is emptied and refilled here.
	 */
	static ServerParameters parameters(McpTransportSettings.Stdio settings, Map<String, String> parentEnvironment) {
		ServerParameters parameters = ServerParameters.builder(settings.command()).args(settings.args()).build();
		Map<String, String> environment = parameters.getEnv();
		environment.clear();
		environment.putAll(environment(settings.env(), parentEnvironment));
		return parameters;
	}

	/** {@code PATH} and {@code HOME} of this process (when set), then the configured variables. */
	static Map<String, String> environment(Map<String, String> configured, Map<String, String> parentEnvironment) {
		Map<String, String> environment = new LinkedHashMap<>();
		for (String name : INHERITED) {
			String value = parentEnvironment.get(name);
			if (value != null) {
				environment.put(name, value);
			}
		}
		environment.putAll(configured);
		return environment;
	}

	@Override
	protected ProcessBuilder getProcessBuilder() {
		ProcessBuilder builder = new ProcessBuilder();
		// the SDK adds the parameters' variables to this map, which starts as a copy of ours
		builder.environment().clear();
		if (this.settings.workingDirectory() != null) {
			builder.directory(this.settings.workingDirectory().toFile());
		}
		return builder;
	}

	@Override
	public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
		return super.connect(handler)
			.doOnSuccess((ignored) -> watchExit())
			.onErrorMap((ex) -> new McpException(
					"MCP server '" + this.server + "' could not be started: " + describe(ex), ex));
	}

	/**
	 * Return a signal that the server process exited: an error saying so, with its last
	 * lines on standard error, when it exited while in use; completion when it exited
	 * after {@link #closeGracefully()}.
	 * @return the signal; never completes while the process runs
	 */
	Mono<Void> terminated() {
		return this.terminated.asMono();
	}

	/** The SDK emits at once, here, so holding the lock serializes the emissions. */
	@Override
	public synchronized Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
		return super.sendMessage(message);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.defer(() -> {
			this.closing = true;
			return super.closeGracefully();
		});
	}

	// one daemon thread per server, blocked in Process.waitFor for the connection's lifetime
	private void watchExit() {
		Thread watcher = new Thread(() -> {
			try {
				awaitForExit();
			}
			catch (RuntimeException ex) {
				return;
			}
			awaitStderr();
			if (this.closing) {
				this.terminated.tryEmitEmpty();
			}
			else {
				this.terminated.tryEmitError(new McpException("MCP server '" + this.server
						+ "': the server process exited" + lastLines()));
			}
		}, "agcore-mcp-" + this.server + "-exit");
		watcher.setDaemon(true);
		watcher.start();
	}

	// the process's last words on stderr may still be on their way to the handler
	private void awaitStderr() {
		long deadline = System.nanoTime() + STDERR_DRAIN_NANOS;
		while (!Boolean.TRUE.equals(getErrorSink().scan(Scannable.Attr.TERMINATED)) && System.nanoTime() < deadline) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
	}

	private void stderr(String line) {
		String kept = (line.length() > MAX_LINE_LENGTH) ? line.substring(0, MAX_LINE_LENGTH) + "..." : line;
		synchronized (this.lastLines) {
			if (this.lastLines.size() == KEPT_LINES) {
				this.lastLines.removeFirst();
			}
			this.lastLines.addLast(kept);
		}
		logger.debug("MCP server '{}' stderr: {}", LogSafe.text(this.server), LogSafe.text(kept));
	}

	private String lastLines() {
		synchronized (this.lastLines) {
			return this.lastLines.isEmpty() ? "" : "; its last lines on stderr: " + String.join(" | ", this.lastLines);
		}
	}

	private static String describe(Throwable ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		return (cause.getMessage() != null) ? cause.getMessage() : cause.getClass().getSimpleName();
	}

}
