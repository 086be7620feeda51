package dev.agcore.mcp.conformance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpServerSettings;
import dev.agcore.mcp.McpTransportSettings;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;

/**
 * The client the MCP conformance suite tests: {@code conformance client --command "java
 * ... ConformanceClient" --scenario <name>} starts a test server for the scenario, runs
 * this with the server's URL as the last argument and the scenario's name in
 * {@code MCP_CONFORMANCE_SCENARIO}, then checks what the client did.
 * <p>
 * It drives agcore's own client, as an application does: an {@link McpClientRegistry}
 * with one streamable HTTP server, started, its tools called through their
 * {@link ToolCallback}s. It exits with 0 when the scenario's steps worked, 1 otherwise,
 * saying why on standard error.
 *
 * @see McpClientConformanceTests
 */
public final class ConformanceClient {

	/** The server's name in the registry; its tools are {@code conformance__<tool>}. */
	static final String SERVER = "conformance";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private ConformanceClient() {
	}

	public static void main(String[] args) {
		String scenario = System.getenv("MCP_CONFORMANCE_SCENARIO");
		if (args.length == 0 || scenario == null) {
			System.err.println("usage: MCP_CONFORMANCE_SCENARIO=<scenario> ConformanceClient ... <server-url>");
			System.exit(2);
		}
		int status;
		try {
			run(scenario, args[args.length - 1]);
			status = 0;
		}
		catch (Exception ex) {
			System.err.println("Scenario " + scenario + " failed: " + ex);
			ex.printStackTrace();
			status = 1;
		}
		// the SDK's and Reactor's threads must not keep the process alive
		System.exit(status);
	}

	static void run(String scenario, String url) throws Exception {
		McpServerSettings settings = McpServerSettings.of(SERVER, McpTransportSettings.StreamableHttp.of(url))
			.withRequired(true)
			.withRequestTimeout(TIMEOUT)
			.withInitializationTimeout(TIMEOUT);
		try (McpClientRegistry registry = McpClientRegistry.builder().server(settings).build()) {
			// connects: initialize, notifications/initialized, tools/list
			registry.start().block(TIMEOUT.multipliedBy(2));
			switch (scenario) {
				case "initialize" -> {
					// connecting is the scenario
				}
				case "tools_call" -> expect(call(registry, "add_numbers", "{\"a\": 5, \"b\": 3}"), "8");
				case "sse-retry" -> expect(call(registry, "test_reconnection", "{}"), "successfully");
				default -> throw new IllegalArgumentException("scenario '" + scenario + "' is not supported");
			}
		}
	}

	private static String call(McpClientRegistry registry, String tool, String arguments) throws Exception {
		String name = SERVER + "__" + tool;
		List<ToolCallback> tools = registry.tools();
		ToolCallback callback = tools.stream()
			.filter((candidate) -> candidate.spec().name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no tool " + name + " in "
					+ tools.stream().map((candidate) -> candidate.spec().name()).toList()));
		String result = callback.call(arguments, new ToolContext("call-1", "conformance", "conformance", Map.of()));
		System.out.println(name + ": " + result);
		return result;
	}

	private static void expect(String result, String part) {
		if (!result.contains(part)) {
			throw new IllegalStateException("expected a result containing '" + part + "', got: " + result);
		}
	}

}
