package dev.agcore.sample;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static dev.agcore.sample.SampleHttp.get;
import static dev.agcore.sample.SampleHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample started, stopped and started again on the same data directory, as a user
 * restarts it: the second run reads the conversation the first one wrote to the H2 file,
 * and approves the cancellation the first one paused for.
 */
class SampleRestartTests {

	@TempDir
	Path dataDirectory;

	@Test
	void conversationsAndPausedTurnsSurviveARestart() {
		String callId;
		try (ConfigurableApplicationContext first = start()) {
			JsonNode weather = post(first, "/agents/assistant/invoke",
					Map.of("sessionId", "before-restart", "message", "What's the weather in Tokyo?"));
			assertThat(weather.get("status").asString()).isEqualTo("completed");
			JsonNode paused = post(first, "/agents/assistant/invoke",
					Map.of("sessionId", "paused-before-restart", "message", "Please cancel order A-1002"));
			assertThat(paused.get("status").asString()).isEqualTo("interrupted");
			callId = paused.at("/pendingToolCalls/0/id").asString();
		}

		try (ConfigurableApplicationContext second = start()) {
			JsonNode history = get(second, "/agents/assistant/sessions/before-restart/messages");
			assertThat(history.toString()).contains("What's the weather in Tokyo?")
				.contains("Tokyo: 25 °C, humid and clear, wind 8 km/h");
			JsonNode resumed = post(second, "/agents/assistant/sessions/paused-before-restart/resume",
					Map.of("decisions", Map.of(callId, Map.of("type", "approve"))));
			assertThat(resumed.get("status").asString()).isEqualTo("completed");
			assertThat(resumed.get("output").asString()).isEqualTo("Here is what I found: Order A-1002 is cancelled.");
		}
		assertThat(this.dataDirectory.resolve("agcore.mv.db")).isRegularFile();
	}

	private ConfigurableApplicationContext start() {
		// arguments, not default properties: those come after application.yml and the system properties
		return new SpringApplicationBuilder(SampleApplication.class)
			.run("--server.port=0", "--sample.data-dir=" + this.dataDirectory);
	}

}
