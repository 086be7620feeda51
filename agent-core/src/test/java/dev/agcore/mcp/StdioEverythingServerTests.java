package dev.agcore.mcp;

import java.util.Map;

import tools.jackson.databind.JsonNode;
import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * server-everything over stdio: a child process of the test.
 */
class StdioEverythingServerTests extends EverythingServerTests {

	@Override
	McpServerSettings settings() {
		return McpTestServers.everythingStdio("everything", "--marker=stdio-everything-tests",
				Map.of("AGCORE_TEST_VARIABLE", "configured"));
	}

	@Test
	void theServerProcessGetsOnlyPathHomeAndTheConfiguredVariables() throws Exception {
		JsonNode environment = AgentJson.mapper().readTree(call("everything__get-env", "{}"));
		assertThat(environment.propertyNames()).containsOnly("PATH", "HOME", "AGCORE_TEST_VARIABLE");
		assertThat(environment.get("AGCORE_TEST_VARIABLE").asString()).isEqualTo("configured");
	}

}
