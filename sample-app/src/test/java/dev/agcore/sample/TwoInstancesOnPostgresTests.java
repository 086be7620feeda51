package dev.agcore.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.UUID;

import dev.agcore.memory.jdbc.JdbcMemorySchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static dev.agcore.sample.SampleHttp.client;
import static dev.agcore.sample.SampleHttp.get;
import static dev.agcore.sample.SampleHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample, each on its own random port, keeping memory in one
 * PostgreSQL database (127.0.0.1:5432, database {@code test}), talked to over HTTP as a
 * load balancer would: a conversation started on one continues on the other, and an
 * order cancellation paused for approval on one is approved on the other. Skipped when
 * PostgreSQL is not running, failed on CI.
 */
class TwoInstancesOnPostgresTests {

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String PREFIX = "sample_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private static ConfigurableApplicationContext one;

	private static ConfigurableApplicationContext two;

	@BeforeAll
	static void startTwoInstances() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", 5432), 2000);
		}
		catch (IOException ex) {
			String message = "PostgreSQL is not reachable at 127.0.0.1:5432 (" + ex.getMessage() + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(message + "; on CI it must be running");
			}
			Assumptions.abort(message + "; start it to run these tests");
		}
		one = start();
		two = start();
	}

	private static ConfigurableApplicationContext start() {
		// arguments, not default properties: application.yml's H2 DataSource would win over those
		return new SpringApplicationBuilder(SampleApplication.class)
			.run("--server.port=0", "--agent.memory.store=jdbc", "--agent.memory.jdbc.initialize-schema=always",
					"--agent.memory.jdbc.table-prefix=" + PREFIX, "--spring.datasource.url=" + URL,
					"--spring.datasource.username=postgres", "--spring.datasource.password=",
					"--spring.datasource.hikari.maximum-pool-size=4");
	}

	@AfterAll
	static void stopAndDropTables() throws Exception {
		for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] { one, two }) {
			if (context != null) {
				context.close();
			}
		}
		if (one != null) {
			JdbcMemorySchema.drop(new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", ""), PREFIX);
		}
	}

	@Test
	void aConversationStartedOnOneInstanceContinuesOnTheOther() {
		String session = "weather-" + UUID.randomUUID();
		JsonNode first = post(one, "/agents/assistant/invoke",
				Map.of("sessionId", session, "message", "What's the weather in Paris?"));
		assertThat(first.get("status").asString()).isEqualTo("completed");

		JsonNode history = get(two, "/agents/assistant/sessions/" + session + "/messages");
		assertThat(history.toString()).contains("What's the weather in Paris?").contains("Paris: 18 °C");

		JsonNode second = post(two, "/agents/assistant/invoke",
				Map.of("sessionId", session, "message", "Convert 10 km to miles"));
		assertThat(second.get("status").asString()).isEqualTo("completed");
		JsonNode both = get(one, "/agents/assistant/sessions/" + session + "/messages");
		assertThat(both.toString()).contains("What's the weather in Paris?").contains("Convert 10 km to miles");
		assertThat(both.toString().indexOf("Paris")).isLessThan(both.toString().indexOf("Convert 10 km"));
	}

	@Test
	void aCancellationPausedForApprovalOnOneInstanceIsApprovedOnTheOther() {
		String session = "cancel-" + UUID.randomUUID();
		JsonNode paused = post(one, "/agents/assistant/invoke",
				Map.of("sessionId", session, "message", "Please cancel order A-1002"));
		assertThat(paused.get("status").asString()).isEqualTo("interrupted");
		String callId = paused.get("pendingToolCalls").get(0).get("id").asString();

		JsonNode resumed = post(two, "/agents/assistant/sessions/" + session + "/resume",
				Map.of("decisions", Map.of(callId, Map.of("type", "approve"))));
		assertThat(resumed.get("status").asString()).isEqualTo("completed");
		assertThat(resumed.get("output").asString()).isEqualTo("Here is what I found: Order A-1002 is cancelled.");

		// the turn is done everywhere: resuming it again on the first instance finds nothing to resume
		client(one).post()
			.uri("/agents/assistant/sessions/" + session + "/resume")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("decisions", Map.of(callId, Map.of("type", "approve"))))
			.exchange()
			.expectStatus()
			.is4xxClientError();
	}

}
