package dev.agcore.mcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real MCP servers the tests run against, from {@link NpmPackages}: server-everything
 * over stdio and over streamable HTTP, server-filesystem, {@code paging-server.cjs}
 * (on the official TypeScript SDK) for paging and cancellation, and
 * {@code prompts-only-server.cjs} for a server without tools.
 */
final class McpTestServers {

	/** Short timeouts and backoff, so that a failing test fails fast. */
	static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

	private McpTestServers() {
	}

	/**
	 * server-everything over stdio. The marker is an extra argument the server ignores,
	 * by which a test finds the process.
	 */
	static McpServerSettings everythingStdio(String name, String marker, Map<String, String> env) {
		return quick(McpServerSettings.of(name, new McpTransportSettings.Stdio(
				NpmPackages.bin("mcp-server-everything").toString(), List.of("stdio", marker), env, null)));
	}

	static McpServerSettings paging(String name) {
		Path modules = NpmPackages.directory().resolve("node_modules");
		return quick(McpServerSettings.of(name, new McpTransportSettings.Stdio("node",
				List.of(resource("/mcp/paging-server.cjs").toString()), Map.of("NODE_PATH", modules.toString()),
				null)));
	}

	/** {@code prompts-only-server.cjs}: declares the prompts capability only, no tools, no resources. */
	static McpServerSettings promptsOnly(String name) {
		Path modules = NpmPackages.directory().resolve("node_modules");
		return quick(McpServerSettings.of(name, new McpTransportSettings.Stdio("node",
				List.of(resource("/mcp/prompts-only-server.cjs").toString()), Map.of("NODE_PATH", modules.toString()),
				null)));
	}

	static McpServerSettings filesystem(String name, Path directory) {
		return quick(McpServerSettings.of(name, new McpTransportSettings.Stdio(
				NpmPackages.bin("mcp-server-filesystem").toString(), List.of(directory.toString()), Map.of(), null)));
	}

	static McpServerSettings everythingHttp(String name, int port) {
		return quick(McpServerSettings.of(name,
				McpTransportSettings.StreamableHttp.of("http://localhost:" + port + "/mcp")));
	}

	static McpServerSettings quick(McpServerSettings settings) {
		return settings.withRequestTimeout(REQUEST_TIMEOUT)
			.withInitializationTimeout(Duration.ofSeconds(15))
			.withBackoff(Duration.ofMillis(100), Duration.ofMillis(500));
	}

	/** Run an assertion until it passes, or fail with its last error after the timeout. */
	static void eventually(Duration timeout, Check check) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try {
				check.run();
				return;
			}
			catch (AssertionError | Exception ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				Thread.sleep(50);
			}
		}
	}

	/** The running process whose command line holds the marker. */
	static Optional<ProcessHandle> process(String marker) {
		return ProcessHandle.current()
			.descendants()
			.filter(ProcessHandle::isAlive)
			.filter((process) -> process.info().commandLine().orElse("").contains(marker))
			.findFirst();
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Path resource(String name) {
		try {
			return Paths.get(McpTestServers.class.getResource(name).toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static McpServerSettings everythingSse(String name, int port) {
		return quick(McpServerSettings.of(name, McpTransportSettings.Sse.of("http://localhost:" + port + "/sse")));
	}

	/** server-everything over HTTP, a node process listening on a port. */
	static final class HttpServer implements AutoCloseable {

		private final int port;

		private final String transport;

		private Process process;

		private HttpServer(int port, String transport) {
			this.port = port;
			this.transport = transport;
			this.process = launch(port, transport);
		}

		/** Streamable HTTP on a free port. */
		static HttpServer start() {
			return startOn(freePort());
		}

		static HttpServer startOn(int port) {
			return new HttpServer(port, "streamableHttp");
		}

		/** The HTTP with SSE transport of protocol version 2024-11-05, on a free port. */
		static HttpServer startSse() {
			return new HttpServer(freePort(), "sse");
		}

		int port() {
			return this.port;
		}

		/** Stop the server, as a crash would, and wait until it is gone. */
		void stop() {
			this.process.descendants().forEach(ProcessHandle::destroyForcibly);
			this.process.destroyForcibly();
			try {
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		/** Start the server again on the same port. */
		void restart() {
			stop();
			this.process = launch(this.port, this.transport);
		}

		@Override
		public void close() {
			stop();
		}

		private static Process launch(int port, String transport) {
			ProcessBuilder builder = new ProcessBuilder(NpmPackages.bin("mcp-server-everything").toString(), transport)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD);
			builder.environment().put("PORT", String.valueOf(port));
			try {
				Process process = builder.start();
				awaitListening(process, port);
				return process;
			}
			catch (IOException ex) {
				throw new IllegalStateException("cannot start mcp-server-everything", ex);
			}
		}

		private static void awaitListening(Process process, int port) {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
			while (System.nanoTime() < deadline) {
				if (!process.isAlive()) {
					throw new IllegalStateException("mcp-server-everything exited with " + process.exitValue());
				}
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress("localhost", port), 200);
					return;
				}
				catch (IOException ex) {
					sleep(50);
				}
			}
			process.destroyForcibly();
			throw new IllegalStateException("mcp-server-everything did not listen on port " + port + " in time");
		}

		private static void sleep(long millis) {
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/** An assertion that may throw. */
	@FunctionalInterface
	interface Check {

		void run() throws Exception;

	}

}
