package dev.agcore.autoconfigure.mcp;

import java.time.Duration;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnection;
import dev.agcore.mcp.McpServerSettings;

import org.springframework.context.SmartLifecycle;

/**
 * Connects the MCP servers once the application context is ready, before the web server
 * takes requests, all in parallel. Startup waits for the
 * {@linkplain McpServerSettings#required() required} servers only, and fails naming any
 * of them that cannot connect and why; the others connect in the background, retried
 * with backoff, so a server the application can do without never delays it.
 * <p>
 * Stopping leaves the connections open: a context that is stopped and started again (as
 * the test framework does with cached contexts) finds its tools still there. They are
 * closed, stopping stdio servers, when the context closes, by the registry bean's
 * {@link McpClientRegistry#close() close}.
 */
final class McpClientLifecycle implements SmartLifecycle {

	/** Before the web server ({@code DEFAULT_PHASE - 1024}), so that the first request finds the tools. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	private static final Duration SLACK = Duration.ofSeconds(5);

	private final McpClientRegistry registry;

	private volatile boolean running;

	McpClientLifecycle(McpClientRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void start() {
		this.running = true;
		try {
			this.registry.startRequired().block(firstAttemptBound());
		}
		catch (RuntimeException ex) {
			throw new AgentConfigurationException(
					"A required MCP server could not connect: " + ex.getMessage(),
					"Start the server or fix its settings under agent.mcp.servers, or set its required property to "
							+ "false to start without it and connect in the background.", ex);
		}
	}

	// each first attempt is bounded by the server's own timeouts; this only guards against a hang
	private Duration firstAttemptBound() {
		Duration longest = Duration.ZERO;
		for (McpConnection connection : this.registry.connections()) {
			McpServerSettings settings = connection.settings();
			Duration bound = settings.initializationTimeout().plus(settings.requestTimeout());
			longest = (bound.compareTo(longest) > 0) ? bound : longest;
		}
		return longest.plus(SLACK);
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
