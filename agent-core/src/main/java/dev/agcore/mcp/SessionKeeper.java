package dev.agcore.mcp;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolProgress;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Keeps one server connected: opens a session, notices when it is lost (the process
 * exited, the server forgot the session, the transport failed and a ping confirms it)
 * and opens a new one, after a backoff that doubles from the initial to the maximum
 * wait while attempts keep failing. The first attempt after losing an established
 * session starts at once. Requests wait for the session being (re)opened, up to their
 * own bound.
 * <p>
 * Thread-safe: sessions report from Reactor threads, requests come from any thread; a
 * lock guards the transitions, never held while doing I/O.
 */
final class SessionKeeper implements McpSession.Listener {

	private static final Logger logger = LoggerFactory.getLogger(SessionKeeper.class);

	private static final Duration MAX_PING_TIMEOUT = Duration.ofSeconds(5);

	private final McpServerSettings settings;

	private final Function<McpServerSettings, McpClientTransport> transports;

	private final Runnable toolsChanged;

	private final Map<Object, ToolProgress> progress = new ConcurrentHashMap<>();

	private final Sinks.Empty<Void> firstAttempt = Sinks.empty();

	private final Object lock = new Object();

	private @Nullable McpSession current;

	private Sinks.One<McpSession> ready = Sinks.one();

	private volatile McpServerStatus status;

	private volatile List<McpSchema.Tool> tools = List.of();

	private int failures;

	private boolean connectedOnce;

	private @Nullable Disposable pending;

	private boolean started;

	private boolean closed;

	/**
	 * Create a keeper; nothing connects before {@link #start()}.
	 * @param settings the server
	 * @param transports creates a new transport for each attempt
	 * @param toolsChanged told when the server's tools may have changed
	 */
	SessionKeeper(McpServerSettings settings, Function<McpServerSettings, McpClientTransport> transports,
			Runnable toolsChanged) {
		this.settings = settings;
		this.transports = transports;
		this.toolsChanged = toolsChanged;
		this.status = new McpServerStatus(settings.name(), settings.transport().kind(), settings.required(),
				McpConnectionState.NEW, 0, null, null);
	}

	McpServerStatus status() {
		return this.status;
	}

	/** The tools of the current session, or of the last one while reconnecting. */
	List<McpSchema.Tool> tools() {
		return this.tools;
	}

	/**
	 * Start connecting, once; later calls return the same outcome.
	 * @return completes when the first attempt succeeds, fails when it fails (attempts go
	 * on in the background either way)
	 */
	Mono<Void> start() {
		synchronized (this.lock) {
			if (!this.started && !this.closed) {
				this.started = true;
				this.status = this.status.with(McpConnectionState.CONNECTING, 0, null, null);
				attempt(Duration.ZERO);
			}
		}
		return this.firstAttempt.asMono();
	}

	/**
	 * Return the open session, waiting for one being opened.
	 * @param wait how long to wait
	 * @return the session, or an error naming the server when it is closed or not
	 * connected in time
	 */
	Mono<McpSession> session(Duration wait) {
		return Mono.defer(() -> {
			Sinks.One<McpSession> next;
			synchronized (this.lock) {
				if (this.closed) {
					return Mono.error(closedException());
				}
				if (this.current != null) {
					return Mono.just(this.current);
				}
				next = this.ready;
			}
			start();
			return next.asMono()
				.timeout(wait, Mono.error(() -> new McpException(
						"MCP server '" + name() + "' is not connected (" + describeState() + "); waited " + wait)));
		});
	}

	/** Send a call's progress notifications to where the caller wants them. */
	void routeProgress(Object token, ToolProgress progress) {
		this.progress.put(token, progress);
	}

	void unrouteProgress(Object token) {
		this.progress.remove(token);
	}

	/**
	 * Turn a failed request into the exception its caller sees, and act on what it says
	 * about the session: a server that forgot the session or cannot be reached means a
	 * new session; a request that timed out calls for a ping.
	 * @param session the session the request went through
	 * @param failure what the SDK reported
	 * @param action what the request did, such as "calling tool 'echo'"
	 * @return the exception to report; a {@link NotSent} when the request never reached
	 * the server and may be sent again
	 */
	Throwable failed(McpSession session, Throwable failure, String action) {
		if (failure instanceof McpException) {
			return failure;
		}
		if (failure instanceof McpError error) {
			return new McpException("MCP server '" + name() + "' answered " + action + " with an error: "
					+ McpErrors.describe(error), error);
		}
		if (failure instanceof TimeoutException) {
			check(session, failure);
			return new McpException("MCP server '" + name() + "' did not answer " + action + " within "
					+ this.settings.requestTimeout(), failure);
		}
		broken(session, failure);
		if (failure instanceof McpTransportSessionNotFoundException || causedBy(failure, ConnectException.class)) {
			return new NotSent("MCP server '" + name() + "' could not be reached while " + action + ": "
					+ McpErrors.describe(failure), failure);
		}
		return new McpException("The connection to MCP server '" + name() + "' failed while " + action + ": "
				+ McpErrors.describe(failure), failure);
	}

	@Override
	public void toolsChanged(McpSession session) {
		synchronized (this.lock) {
			if (session != this.current) {
				return;
			}
			this.tools = session.tools();
			this.status = this.status.with(McpConnectionState.CONNECTED, this.tools.size(), null,
					session.connectedAt());
		}
		this.toolsChanged.run();
	}

	@Override
	public void transportError(McpSession session, Throwable error) {
		if (error instanceof McpTransportSessionNotFoundException) {
			broken(session, error);
		}
		else {
			check(session, error);
		}
	}

	@Override
	public void broken(McpSession session, Throwable cause) {
		synchronized (this.lock) {
			if (this.closed || session != this.current) {
				return;
			}
			this.current = null;
			this.ready = Sinks.one();
			this.failures = 0;
			this.status = this.status.with(McpConnectionState.RECONNECTING, this.tools.size(),
					McpErrors.describe(cause), null);
			attempt(Duration.ZERO);
		}
		logger.warn("Lost the connection to MCP server '{}': {}; reconnecting", LogSafe.text(name()),
				LogSafe.text(McpErrors.describe(cause)));
		session.close().subscribe();
	}

	@Override
	public void progress(McpSchema.ProgressNotification notification) {
		ToolProgress target = this.progress.get(notification.progressToken());
		if (target != null && notification.progress() != null) {
			target.report(notification.progress(), notification.total(), notification.message());
		}
	}

	/**
	 * Close the session and stop reconnecting, for good.
	 * @return completes when the session is closed (for stdio: the process stopped)
	 */
	Mono<Void> close() {
		McpSession session;
		synchronized (this.lock) {
			if (this.closed) {
				return Mono.empty();
			}
			this.closed = true;
			session = this.current;
			this.current = null;
			if (this.pending != null) {
				this.pending.dispose();
			}
			this.status = this.status.with(McpConnectionState.CLOSED, 0, this.status.lastError(), null);
			this.ready.tryEmitError(closedException());
		}
		this.firstAttempt.tryEmitError(closedException());
		this.toolsChanged.run();
		return (session != null) ? session.close() : Mono.empty();
	}

	// a ping tells a transport hiccup from a lost session
	private void check(McpSession session, Throwable cause) {
		synchronized (this.lock) {
			if (session != this.current) {
				return;
			}
		}
		Duration timeout = min(this.settings.requestTimeout(), MAX_PING_TIMEOUT);
		session.client()
			.ping()
			.timeout(timeout)
			.subscribe(null, (ex) -> broken(session, new McpException(McpErrors.describe(cause)
					+ " (and a ping got no answer: " + McpErrors.describe(ex) + ")", cause)));
	}

	// called with the lock held
	private void attempt(Duration delay) {
		Mono<McpSession> open = Mono
			.defer(() -> McpSession.open(this.settings, this.transports.apply(this.settings), this));
		this.pending = Mono.delay(delay).then(open).subscribe(this::opened, this::attemptFailed);
	}

	private void opened(McpSession session) {
		synchronized (this.lock) {
			if (this.closed) {
				session.close().subscribe();
				return;
			}
			this.current = session;
			this.tools = session.tools();
		}
		// the tools are offered before the status says CONNECTED and before start() completes,
		// so whoever sees CONNECTED finds them
		this.toolsChanged.run();
		synchronized (this.lock) {
			if (session != this.current) {
				return;
			}
			this.failures = 0;
			this.connectedOnce = true;
			this.status = this.status.with(McpConnectionState.CONNECTED, this.tools.size(), null,
					session.connectedAt());
			this.ready.tryEmitValue(session);
		}
		logger.info("Connected to MCP server '{}' ({}): {} tools", LogSafe.text(name()),
				this.settings.transport().kind(), this.tools.size());
		this.firstAttempt.tryEmitEmpty();
	}

	private void attemptFailed(Throwable ex) {
		String why = McpErrors.describe(ex);
		Duration delay;
		int failures;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			failures = ++this.failures;
			delay = backoff(failures);
			this.status = this.status.with(
					this.connectedOnce ? McpConnectionState.RECONNECTING : McpConnectionState.FAILED,
					this.tools.size(), why, null);
			attempt(delay);
		}
		// once per outage at warn; the retries that follow at debug
		if (failures == 1) {
			logger.warn("Could not connect to MCP server '{}': {}; retrying in the background", LogSafe.text(name()),
					LogSafe.text(why));
		}
		else {
			logger.debug("Could not connect to MCP server '{}' ({} attempts): {}; next in {}", LogSafe.text(name()),
					failures, LogSafe.text(why), delay);
		}
		this.firstAttempt.tryEmitError(new McpException("MCP server '" + name() + "' could not connect: " + why, ex));
	}

	Duration backoff(int failures) {
		Duration delay = this.settings.initialBackoff();
		for (int i = 1; i < failures && delay.compareTo(this.settings.maxBackoff()) < 0; i++) {
			delay = delay.multipliedBy(2);
		}
		return min(delay, this.settings.maxBackoff());
	}

	private String describeState() {
		McpServerStatus now = this.status;
		return now.state().name().toLowerCase(Locale.ROOT)
				+ ((now.lastError() != null) ? ": " + now.lastError() : "");
	}

	private McpException closedException() {
		return new McpException("MCP server '" + name() + "' is closed");
	}

	private String name() {
		return this.settings.name();
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return true;
			}
		}
		return false;
	}

	/** A request that never reached the server because its session was gone; safe to send again. */
	static final class NotSent extends McpException {

		NotSent(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
