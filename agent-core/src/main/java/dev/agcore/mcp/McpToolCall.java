package dev.agcore.mcp;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolProgress;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * One blocking tool call through the asynchronous client, on the caller's thread (a
 * tool thread, never an event loop):
 * <ul>
 * <li>waits for the server's session when it is being (re)opened, within the request
 * timeout;</li>
 * <li>sends a progress token of its own in {@code _meta} and forwards the server's
 * progress notifications for it to the tool's {@link ToolProgress};</li>
 * <li>sends the call once more, on the new session, when it never reached the server
 * because the old one was gone (the server restarted and forgot it, or refused the
 * connection); a call the server may have run is never repeated;</li>
 * <li>when the waiting thread is interrupted (the turn was cancelled or the tool
 * timed out) or the request timeout passes, tells the server with
 * {@code notifications/cancelled} for the call's request id.</li>
 * </ul>
 */
final class McpToolCall {

	private static final Logger logger = LoggerFactory.getLogger(McpToolCall.class);

	// the inner bounds (waiting for a session, the SDK's request timeout) fail first, with the better message
	private static final Duration SLACK = Duration.ofSeconds(1);

	private final SessionKeeper keeper;

	private final McpServerSettings settings;

	McpToolCall(SessionKeeper keeper, McpServerSettings settings) {
		this.keeper = keeper;
		this.settings = settings;
	}

	/**
	 * Call a tool and wait for its result.
	 * @param tool the tool's name on the server
	 * @param arguments its arguments
	 * @param progress where its progress goes
	 * @return the result; {@code isError} results too, for the caller to judge
	 * @throws InterruptedException if the waiting thread was interrupted; the call is
	 * cancelled on the server
	 * @throws McpException if the server is not connected, does not answer in time or
	 * answers with a JSON-RPC error
	 */
	McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, ToolProgress progress)
			throws InterruptedException {
		if (Schedulers.isInNonBlockingThread()) {
			throw new IllegalStateException("MCP tool '" + tool + "' of server '" + this.settings.name()
					+ "' was called on a non-blocking thread (" + Thread.currentThread().getName()
					+ "); tools run on the agent's tool scheduler");
		}
		String token = "agcore-" + UUID.randomUUID();
		String action = "calling tool '" + tool + "'";
		McpSchema.CallToolRequest request = McpSchema.CallToolRequest.builder()
			.name(tool)
			.arguments(arguments)
			.progressToken(token)
			.build();
		AtomicReference<@Nullable McpSession> used = new AtomicReference<>();
		Duration timeout = this.settings.requestTimeout();
		CompletableFuture<McpSchema.CallToolResult> future = this.keeper.session(timeout)
			.flatMap((session) -> {
				used.set(session);
				return session.client()
					.callTool(request)
					.onErrorMap((ex) -> this.keeper.failed(session, ex, action));
			})
			.retryWhen(Retry.max(1).filter(SessionKeeper.NotSent.class::isInstance).onRetryExhaustedThrow(
					(spec, signal) -> signal.failure()))
			.toFuture();
		this.keeper.routeProgress(token, progress);
		try {
			return future.get(timeout.plus(SLACK).toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			giveUp(future, used.get(), token, "the caller cancelled the tool call");
			throw ex;
		}
		catch (TimeoutException ex) {
			giveUp(future, used.get(), token, "the client stopped waiting after " + timeout);
			throw new McpException("MCP server '" + this.settings.name() + "' did not answer " + action + " within "
					+ timeout);
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			if (cause.getCause() instanceof TimeoutException) {
				giveUp(future, used.get(), token, "the client stopped waiting after " + timeout);
			}
			throw (cause instanceof McpException mcp) ? mcp
					: new McpException("MCP server '" + this.settings.name() + "' failed " + action + ": "
							+ McpErrors.describe(cause), cause);
		}
		finally {
			this.keeper.unrouteProgress(token);
			McpSession session = used.get();
			if (session != null) {
				session.transport().forget(token);
			}
		}
	}

	private void giveUp(CompletableFuture<?> future, @Nullable McpSession session, Object token, String reason) {
		future.cancel(true);
		if (session == null) {
			return;
		}
		session.transport()
			.cancel(token, reason)
			.timeout(SLACK)
			.subscribe(null, (ex) -> logger.debug("Could not cancel a call on MCP server '{}'",
					LogSafe.text(this.settings.name()), LogSafe.throwable(ex)));
	}

}
