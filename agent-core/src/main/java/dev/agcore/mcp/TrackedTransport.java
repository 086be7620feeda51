package dev.agcore.mcp;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A transport seen through: it remembers the JSON-RPC id of each {@code tools/call} the
 * client sends with a progress token of ours, so that a call given up can be cancelled
 * on the server with {@code notifications/cancelled}, which the SDK (2.0) never sends (its
 * client session neither exposes request ids nor reacts to a cancelled subscription).
 * <p>
 * It reports a transport that could not connect through {@link #terminated()}, and takes
 * the transport's error reports from the client: the SDK re-initialises
 * the same client in place when a server forgets the session, while the connection
 * replaces the client and transport as a whole, for stdio and HTTP alike.
 */
final class TrackedTransport implements McpClientTransport {

	/** The notification of the MCP specification the SDK has no constant for. */
	static final String METHOD_NOTIFICATION_CANCELLED = "notifications/cancelled";

	private final McpClientTransport delegate;

	private final Consumer<Throwable> errors;

	private final Map<Object, Object> requestIds = new ConcurrentHashMap<>();

	private final Sinks.Empty<Void> failed = Sinks.empty();

	TrackedTransport(McpClientTransport delegate, Consumer<Throwable> errors) {
		this.delegate = Objects.requireNonNull(delegate, "'delegate' must not be null");
		this.errors = Objects.requireNonNull(errors, "'errors' must not be null");
	}

	McpClientTransport delegate() {
		return this.delegate;
	}

	/**
	 * Connect. A failure is reported through {@link #terminated()} rather than to the SDK's
	 * session, which would only log it and let the handshake wait for its timeout.
	 */
	@Override
	public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
		return this.delegate.connect(handler).onErrorResume((ex) -> {
			this.failed.tryEmitError(ex);
			return Mono.empty();
		});
	}

	/**
	 * Return a signal that the transport is gone: an error when it could not connect or,
	 * for stdio, when the server process could not start or exited.
	 * @return the signal; never completes while the transport works
	 */
	Mono<Void> terminated() {
		Mono<Void> failed = this.failed.asMono();
		return (this.delegate instanceof StdioServerTransport stdio) ? Mono.firstWithSignal(failed, stdio.terminated())
				: failed;
	}

	@Override
	public void setExceptionHandler(Consumer<Throwable> handler) {
		this.delegate.setExceptionHandler(this.errors);
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
		if (message instanceof McpSchema.JSONRPCRequest request
				&& McpSchema.METHOD_TOOLS_CALL.equals(request.method())
				&& request.params() instanceof McpSchema.CallToolRequest call && call.meta() != null) {
			Object token = call.meta().get("progressToken");
			if (token != null) {
				this.requestIds.put(token, request.id());
			}
		}
		return this.delegate.sendMessage(message);
	}

	/**
	 * Tell the server to stop working on the call sent with a progress token, if it was
	 * sent.
	 * @param progressToken the call's token
	 * @param reason why, for the server's logs
	 * @return completes when the notification is sent; empty when the call never was
	 */
	Mono<Void> cancel(Object progressToken, String reason) {
		Object requestId = this.requestIds.remove(progressToken);
		if (requestId == null) {
			return Mono.empty();
		}
		return this.delegate.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
				METHOD_NOTIFICATION_CANCELLED, Map.of("requestId", requestId, "reason", reason)));
	}

	/** Forget a call that ended. */
	void forget(Object progressToken) {
		this.requestIds.remove(progressToken);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return this.delegate.closeGracefully();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		return this.delegate.unmarshalFrom(data, typeRef);
	}

	@Override
	public List<String> protocolVersions() {
		return this.delegate.protocolVersions();
	}

}
