package dev.agcore.benchmarks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One MCP tool call through agcore's client, as an agent makes it: {@code echo} of the
 * official {@code @modelcontextprotocol/server-everything} (pinned in {@code .ci/npm}),
 * over stdio (a child process) and over streamable HTTP (a local server). What is
 * measured is the whole round trip: agcore's tool callback, the MCP Java SDK, the
 * transport and the Node.js server; compare with a local {@code @Tool} call in
 * {@link AgentTurnBenchmark} to see what MCP adds. Run from the repository's root, which
 * holds {@code .ci/install-npm-packages} (it installs the server once).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms512m", "-Xmx512m" })
public class McpToolCallBenchmark {

	private static final ToolContext CONTEXT = new ToolContext("call", "session", "bench", Map.of());

	/** {@code stdio} or {@code http} (streamable HTTP). */
	@Param({ "stdio", "http" })
	public String transport;

	private Process httpServer;

	private McpClientRegistry registry;

	private ToolCallback echo;

	@Setup
	public void setUp() throws Exception {
		Path everything = npmPackages().resolve("node_modules/.bin/mcp-server-everything");
		McpServerSettings settings;
		if ("http".equals(this.transport)) {
			int port = freePort();
			ProcessBuilder builder = new ProcessBuilder(everything.toString(), "streamableHttp")
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD);
			builder.environment().put("PORT", String.valueOf(port));
			this.httpServer = builder.start();
			awaitListening(port);
			settings = McpServerSettings.of("everything",
					McpTransportSettings.StreamableHttp.of("http://localhost:" + port + "/mcp"));
		}
		else {
			settings = McpServerSettings.of("everything",
					new McpTransportSettings.Stdio(everything.toString(), List.of("stdio"), Map.of(), null));
		}
		this.registry = McpClientRegistry.builder()
			.server(settings.withInitializationTimeout(Duration.ofSeconds(30)).withRequired(true))
			.build();
		this.registry.start().block(Duration.ofSeconds(60));
		this.echo = this.registry.tools()
			.stream()
			.filter((tool) -> tool.spec().name().equals("everything__echo"))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("server-everything offers no echo tool"));
	}

	@TearDown
	public void tearDown() {
		if (this.registry != null) {
			this.registry.close();
		}
		if (this.httpServer != null) {
			this.httpServer.destroy();
		}
	}

	@Benchmark
	public String echo() throws Exception {
		return this.echo.call("{\"message\":\"hello\"}", CONTEXT);
	}

	// the pinned packages, installed once into a cache directory by the script CI runs too
	private static Path npmPackages() throws IOException, InterruptedException {
		Path script = Paths.get(".ci", "install-npm-packages");
		if (!Files.isRegularFile(script)) {
			throw new IllegalStateException("Run from the repository's root: " + script + " not found");
		}
		Process process = new ProcessBuilder("bash", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (process.waitFor() != 0) {
			throw new IllegalStateException(script + " failed with exit code " + process.exitValue());
		}
		return Paths.get(out);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private void awaitListening(int port) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			if (!this.httpServer.isAlive()) {
				throw new IllegalStateException("mcp-server-everything exited with " + this.httpServer.exitValue());
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("localhost", port), 200);
				return;
			}
			catch (IOException ex) {
				Thread.sleep(50);
			}
		}
		throw new IllegalStateException("mcp-server-everything did not listen on port " + port + " in time");
	}

}
