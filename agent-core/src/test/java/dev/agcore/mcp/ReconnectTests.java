package dev.agcore.mcp;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Servers that die, restart or are not there yet, against the real server-everything.
 */
class ReconnectTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private McpClientRegistry registry;

	private McpTestServers.HttpServer server;

	@AfterEach
	void close() {
		if (this.registry != null) {
			this.registry.close();
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void theNextCallAfterTheStdioProcessDiedStartsItAgainAndSucceeds() throws Exception {
		String marker = "--marker=reconnect-" + System.nanoTime();
		start(McpTestServers.everythingStdio("everything", marker, Map.of()));
		assertThat(echo("before")).isEqualTo("Echo: before");
		Instant connectedSince = status().connectedSince();
		ProcessHandle process = McpTestServers.process(marker).orElseThrow();
		process.destroyForcibly();
		process.onExit().get();
		// a call racing the client's noticing the exit may fail, naming the server; the next one succeeds
		assertThat(echoOrError("during")).matches("Echo: during|.*MCP server 'everything'.*");
		assertThat(echo("after")).isEqualTo("Echo: after");
		assertThat(McpTestServers.process(marker)).get().isNotEqualTo(process);
		assertThat(status().state()).isEqualTo(McpConnectionState.CONNECTED);
		assertThat(status().connectedSince()).isAfter(connectedSince);
	}

	@Test
	void theNextCallAfterTheHttpServerRestartedOpensANewSessionAndSucceeds() throws Exception {
		this.server = McpTestServers.HttpServer.start();
		start(McpTestServers.everythingHttp("everything", this.server.port()));
		assertThat(echo("before")).isEqualTo("Echo: before");
		this.server.restart();
		assertThat(echo("after")).isEqualTo("Echo: after");
		assertThat(status().state()).isEqualTo(McpConnectionState.CONNECTED);
	}

	@Test
	void aCallWhileTheServerIsDownFailsNamingTheServerAndOneAfterItIsBackSucceeds() throws Exception {
		this.server = McpTestServers.HttpServer.start();
		start(McpTestServers.everythingHttp("everything", this.server.port())
			.withRequestTimeout(Duration.ofSeconds(2)));
		ToolCallback echo = echoTool();
		this.server.stop();
		assertThatExceptionOfType(McpException.class)
			.isThrownBy(() -> echo.call("{\"message\":\"down\"}", context()))
			.withMessageContaining("MCP server 'everything'");
		McpTestServers.eventually(TIMEOUT, () -> assertThat(status().state()).isIn(McpConnectionState.RECONNECTING));
		assertThat(status().lastError()).isNotBlank();
		assertThat(this.registry.tools()).as("the last known tools stay offered")
			.anyMatch((tool) -> tool.spec().name().equals("everything__echo"));
		this.server.restart();
		McpTestServers.eventually(TIMEOUT, () -> assertThat(echo("back")).isEqualTo("Echo: back"));
	}

	@Test
	void anOptionalServerThatIsNotThereYetConnectsInTheBackgroundOnceItIs() throws Exception {
		int port = McpTestServers.freePort();
		this.registry = McpClientRegistry.builder().server(McpTestServers.everythingHttp("everything", port)).build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(TIMEOUT);
		assertThat(status().state()).isEqualTo(McpConnectionState.FAILED);
		assertThat(status().lastError()).isNotBlank();
		assertThat(this.registry.tools()).isEmpty();
		this.server = McpTestServers.HttpServer.startOn(port);
		McpTestServers.eventually(TIMEOUT,
				() -> assertThat(status().state()).isEqualTo(McpConnectionState.CONNECTED));
		assertThat(echo("late")).isEqualTo("Echo: late");
	}

	@Test
	void aRequiredServerThatCannotStartFailsStartNamingItAndWhy() {
		McpServerSettings missing = McpTestServers.quick(McpServerSettings.of("broken",
				new McpTransportSettings.Stdio("/no/such/mcp-server", List.of(), Map.of(), null)))
			.withRequired(true);
		this.registry = McpClientRegistry.builder().server(missing).build();
		StepVerifier.create(this.registry.start())
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(McpException.class)
				.hasMessageContaining("MCP server 'broken'")
				.hasMessageContaining("/no/such/mcp-server"))
			.verify(Duration.ofSeconds(5));
		assertThat(this.registry.statuses().get(0).state()).isEqualTo(McpConnectionState.FAILED);
	}

	@Test
	void aServerProcessThatExitsAtOnceFailsWithItsLastWordsOnStderr() {
		McpServerSettings exits = McpTestServers.quick(McpServerSettings.of("exits",
				new McpTransportSettings.Stdio("sh", List.of("-c", "sleep 0.3; echo 'cannot open the database' >&2; exit 3"),
						Map.of(), null)))
			.withRequired(true);
		this.registry = McpClientRegistry.builder().server(exits).build();
		StepVerifier.create(this.registry.start())
			.expectErrorSatisfies((ex) -> assertThat(ex).hasMessageContaining("MCP server 'exits'")
				.hasMessageContaining("exited")
				.hasMessageContaining("cannot open the database"))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void closingStopsTheStdioProcessAndFailsLaterCalls() throws Exception {
		String marker = "--marker=close-" + System.nanoTime();
		start(McpTestServers.everythingStdio("everything", marker, Map.of()));
		ToolCallback echo = echoTool();
		ProcessHandle process = McpTestServers.process(marker).orElseThrow();
		this.registry.close();
		this.registry.close();
		assertThat(process.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS).isAlive()).isFalse();
		assertThat(status().state()).isEqualTo(McpConnectionState.CLOSED);
		assertThat(this.registry.tools()).isEmpty();
		assertThatExceptionOfType(McpException.class).isThrownBy(() -> echo.call("{\"message\":\"x\"}", context()))
			.withMessageContaining("MCP server 'everything' is closed");
	}

	private void start(McpServerSettings settings) {
		this.registry = McpClientRegistry.builder().server(settings).build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(TIMEOUT);
	}

	private McpServerStatus status() {
		return this.registry.statuses().get(0);
	}

	private String echo(String message) throws Exception {
		return echoTool().call("{\"message\":\"" + message + "\"}", context());
	}

	private String echoOrError(String message) {
		try {
			return echo(message);
		}
		catch (Exception ex) {
			assertThat(ex).isInstanceOf(McpException.class);
			return ex.getMessage();
		}
	}

	private ToolCallback echoTool() {
		return this.registry.tools()
			.stream()
			.filter((tool) -> tool.spec().name().equals("everything__echo"))
			.findFirst()
			.orElseThrow();
	}

	private static ToolContext context() {
		return new ToolContext("call", "session", "agent", Map.of());
	}

}
