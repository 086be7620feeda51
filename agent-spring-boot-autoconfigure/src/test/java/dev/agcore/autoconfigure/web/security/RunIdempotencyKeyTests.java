package dev.agcore.autoconfigure.web.security;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Idempotency keys of background runs across users, over a real socket with HTTP basic
 * users alice and bob (docs/security.md, "Idempotency keys"): a key is the caller's own,
 * so alice never gets bob's run by naming his key, and a key sent again with another
 * request is a 409 {@code idempotency_conflict}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunIdempotencyKeyTests {

	private static final String RUNS = "/agents/assistant/runs";

	private ConfigurableApplicationContext context;

	private WebTestClient client;

	@BeforeAll
	void start() {
		this.context = new SpringApplicationBuilder(SecuredAgentsApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "spring.main.banner-mode=off", "agent.web.enabled=true",
					"agent.agents.assistant.model=scripted", "agent.untrusted-content.enabled=false")
			.run();
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
	}

	@AfterAll
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void aliceNamingBobsKeyGetsARunOfHerOwn() {
		String key = "key-" + UUID.randomUUID();
		String bobs = "s-" + UUID.randomUUID();
		String alices = "s-" + UUID.randomUUID();
		Map<String, Object> bobsRun = submit("bob", Map.of("sessionId", bobs, "message", "bob's secret", "delay", "1h",
				"idempotencyKey", key), HttpStatus.ACCEPTED);
		Map<String, Object> alicesRun = submit("alice", Map.of("sessionId", alices, "message", "mine", "delay", "1h",
				"idempotencyKey", key), HttpStatus.ACCEPTED);
		assertThat(alicesRun.get("id")).isNotEqualTo(bobsRun.get("id"));
		assertThat(alicesRun.get("sessionId")).isEqualTo(alices);
		// each of them still finds their own run with the key
		assertThat(submit("bob", Map.of("sessionId", bobs, "message", "bob's secret", "delay", "1h", "idempotencyKey",
				key), HttpStatus.ACCEPTED).get("id")).isEqualTo(bobsRun.get("id"));
		assertThat(submit("alice", Map.of("sessionId", alices, "message", "mine", "delay", "1h", "idempotencyKey", key),
				HttpStatus.ACCEPTED).get("id")).isEqualTo(alicesRun.get("id"));
	}

	@Test
	void theSameKeyWithAnotherRequestIsAConflict() {
		String key = "key-" + UUID.randomUUID();
		String session = "s-" + UUID.randomUUID();
		Map<String, Object> first = submit("alice", Map.of("sessionId", session, "message", "one", "delay", "1h",
				"idempotencyKey", key), HttpStatus.ACCEPTED);
		// the same request with its members in another order is the same request
		Map<String, Object> again = submit("alice", Map.of("idempotencyKey", key, "delay", "1h", "message", "one",
				"sessionId", session), HttpStatus.ACCEPTED);
		assertThat(again.get("id")).isEqualTo(first.get("id"));

		Map<String, Object> conflict = submit("alice", Map.of("sessionId", session, "message", "two", "delay", "1h",
				"idempotencyKey", key), HttpStatus.CONFLICT);
		assertThat(conflict).containsEntry("error", "idempotency_conflict");
		assertThat((String) conflict.get("message")).contains("different request").doesNotContain((String) first.get("id"));
		// nothing was queued for the refused request
		as("alice", this.client.get().uri(RUNS + "?sessionId={id}", session)).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.length()")
			.isEqualTo(1);
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> submit(String user, Map<String, Object> body, HttpStatus status) {
		return as(user, this.client.post().uri(RUNS).contentType(MediaType.APPLICATION_JSON).bodyValue(body))
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
	}

	private WebTestClient.RequestHeadersSpec<?> as(String user, WebTestClient.RequestHeadersSpec<?> request) {
		return request.headers((headers) -> headers.setBasicAuth(user, user + "-pw"));
	}

}
