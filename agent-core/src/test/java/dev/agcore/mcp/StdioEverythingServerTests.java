package dev.agcore.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolScope;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

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
	void aStreamedTurnShowsTheServersProgressBetweenTheToolCallAndItsResult() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "everything__trigger-long-running-operation",
						"{\"duration\":0.4,\"steps\":2}")),
				text("finished"));
		Agent agent = Agent.builder()
			.name("a")
			.model(model)
			.toolSource(this.registry, ToolScope.of("mcp:everything/trigger-*"))
			.build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "run it"))
			.collectList()
			.block(Duration.ofSeconds(20));

		assertThat(events).extracting(AgentEvent::type)
			.containsSubsequence("tool_call", "tool_progress", "tool_progress", "tool_result", "completed");
		assertThat(events).filteredOn(AgentEvent.ToolProgress.class::isInstance)
			.map(AgentEvent.ToolProgress.class::cast)
			.extracting(AgentEvent.ToolProgress::progress, AgentEvent.ToolProgress::total)
			.containsExactly(tuple(1.0, 2.0), tuple(2.0, 2.0));
	}

	@Test
	void theServerProcessGetsOnlyPathHomeAndTheConfiguredVariables() throws Exception {
		JsonNode environment = AgentJson.mapper().readTree(call("everything__get-env", "{}"));
		assertThat(environment.propertyNames()).containsOnly("PATH", "HOME", "AGCORE_TEST_VARIABLE");
		assertThat(environment.get("AGCORE_TEST_VARIABLE").asString()).isEqualTo("configured");
	}

	@Test
	void callsFromManyThreadsAtOnceAllGoThrough() throws Exception {
		int calls = 64;
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<String>> answers = new ArrayList<>();
			for (int i = 0; i < calls; i++) {
				String message = "m" + i;
				answers.add(threads.submit(() -> {
					start.await();
					return call("everything__echo", "{\"message\":\"" + message + "\"}");
				}));
			}
			start.countDown();
			for (int i = 0; i < calls; i++) {
				assertThat(answers.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("Echo: m" + i);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

}
