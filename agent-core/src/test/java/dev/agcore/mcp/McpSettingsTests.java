package dev.agcore.mcp;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class McpSettingsTests {

	private static final McpTransportSettings STDIO = new McpTransportSettings.Stdio("server", List.of(), Map.of(),
			null);

	@Test
	void aUrlsPathIsTheEndpointOrTheDefault() {
		McpTransportSettings.StreamableHttp http = McpTransportSettings.StreamableHttp.of("http://localhost:3001/api/mcp");
		assertThat(http.url()).isEqualTo(URI.create("http://localhost:3001"));
		assertThat(http.endpoint()).isEqualTo("/api/mcp");
		assertThat(McpTransportSettings.StreamableHttp.of("https://example.com").endpoint()).isEqualTo("/mcp");
		assertThat(McpTransportSettings.Sse.of("http://localhost:8080/").endpoint()).isEqualTo("/sse");
	}

	@Test
	void aUrlMustBeAbsoluteHttp() {
		assertThatIllegalArgumentException().isThrownBy(() -> McpTransportSettings.StreamableHttp.of("ftp://x/mcp"))
			.withMessageContaining("must start with http:// or https://");
		assertThatIllegalArgumentException().isThrownBy(() -> McpTransportSettings.StreamableHttp.of("localhost:3001"));
	}

	@Test
	void headerValuesAndEnvironmentValuesAreNotShown() {
		assertThat(McpTransportSettings.StreamableHttp.of("http://h/mcp")
			.withHeaders(Map.of("Authorization", "Bearer secret"))
			.toString()).contains("Authorization").doesNotContain("secret");
		assertThat(new McpTransportSettings.Stdio("s", List.of(), Map.of("TOKEN", "secret"), null).toString())
			.contains("TOKEN")
			.doesNotContain("secret");
	}

	@Test
	void aServerNameMustBeUsableInToolNamesAndScopes() {
		assertThat(McpServerSettings.of("my-server.v2", STDIO).name()).isEqualTo("my-server.v2");
		assertThatIllegalArgumentException().isThrownBy(() -> McpServerSettings.of("a/b", STDIO))
			.withMessageContaining("MCP server name 'a/b'");
		assertThatIllegalArgumentException().isThrownBy(() -> McpServerSettings.of("*", STDIO));
	}

	@Test
	void theBackoffDoublesUpToItsMaximum() {
		McpServerSettings settings = McpServerSettings.of("s", STDIO)
			.withBackoff(Duration.ofMillis(100), Duration.ofMillis(700));
		SessionKeeper keeper = new SessionKeeper(settings, (ignored) -> {
			throw new AssertionError("no connection in this test");
		}, () -> {
		});
		assertThat(List.of(1, 2, 3, 4, 5)).extracting(keeper::backoff)
			.containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
					Duration.ofMillis(700), Duration.ofMillis(700));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> settings.withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
	}

	@Test
	void theChildEnvironmentIsPathHomeAndTheConfiguredVariablesOnly() {
		Map<String, String> parent = Map.of("PATH", "/bin", "HOME", "/home/me", "AWS_SECRET_ACCESS_KEY", "secret",
				"SHELL", "/bin/bash");
		assertThat(StdioServerTransport.environment(Map.of("API_URL", "http://x", "PATH", "/opt/bin"), parent))
			.containsOnly(Map.entry("PATH", "/opt/bin"), Map.entry("HOME", "/home/me"),
					Map.entry("API_URL", "http://x"));
		assertThat(StdioServerTransport
			.parameters(new McpTransportSettings.Stdio("node", List.of("server.js"), Map.of("A", "1"), null), parent)
			.getEnv()).containsOnlyKeys("PATH", "HOME", "A");
	}

}
