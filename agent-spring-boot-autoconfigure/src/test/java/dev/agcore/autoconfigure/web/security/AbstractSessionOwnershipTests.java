package dev.agcore.autoconfigure.web.security;

import java.util.ArrayList;
import java.util.List;
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
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ownership tests over a real socket, with HTTP basic users alice and bob:
 * alice cannot read, continue, stream, resume or delete bob's session, nor reach its
 * background runs; each gets the 404 an unknown session gets. Subclasses choose the
 * store the sessions and their owners live in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractSessionOwnershipTests {

	private ConfigurableApplicationContext context;

	private WebTestClient client;

	/**
	 * The configuration of the store, with its auto-configurations; or {@code null} for
	 * the in-memory default.
	 * @return the configuration class
	 */
	protected abstract Class<?> storeConfiguration();

	/**
	 * The properties that select the store.
	 * @return the properties
	 */
	protected abstract List<String> storeProperties();

	/**
	 * More properties of the application under test.
	 * @return the properties
	 */
	protected List<String> moreProperties() {
		return List.of();
	}

	/** Check that the store's server runs, before the application starts. */
	protected void requireStore() {
	}

	@BeforeAll
	void start() {
		requireStore();
		List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
				"agent.web.enabled=true", "agent.agents.assistant.model=scripted",
				// the model echoes tool results: unmarked, as untrusted-content marking has its own tests
				"agent.untrusted-content.enabled=false"));
		properties.addAll(storeProperties());
		properties.addAll(moreProperties());
		List<Class<?>> sources = new ArrayList<>(List.of(SecuredAgentsApplication.class));
		if (storeConfiguration() != null) {
			sources.add(storeConfiguration());
		}
		this.context = new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).web(WebApplicationType.REACTIVE)
			.properties(properties.toArray(String[]::new))
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

	protected ConfigurableApplicationContext context() {
		return this.context;
	}

	protected WebTestClient.RequestHeadersSpec<?> as(String user, WebTestClient.RequestHeadersSpec<?> request) {
		return request.headers((headers) -> headers.setBasicAuth(user, user + "-pw"));
	}

	protected WebTestClient client() {
		return this.client;
	}

	protected static String newSession() {
		return "s-" + UUID.randomUUID();
	}

	protected WebTestClient.ResponseSpec invoke(String user, String sessionId, String message) {
		return as(user, this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", sessionId, "message", message))).exchange();
	}

	@Test
	void theStarterOpensNoRouteAndAddsNoFilterChain() {
		this.client.get().uri("/agents").exchange().expectStatus().isUnauthorized();
		this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", newSession(), "message", "hi"))
			.exchange()
			.expectStatus()
			.isUnauthorized();
		this.client.get().uri("/agents/-/sessions").exchange().expectStatus().isUnauthorized();
		assertThat(this.context.getBeansOfType(SecurityWebFilterChain.class)).containsOnlyKeys("securityWebFilterChain");
	}

	@Test
	void aliceGetsTheUnknownSessionAnswerForEverythingOfBobsSession() {
		String bobs = newSession();
		invoke("bob", bobs, "my secret plan").expectStatus().isOk();

		String unknown = newSession();
		Map<String, Object> unknownAnswer = notFound(as("alice",
				this.client.get().uri("/agents/assistant/sessions/{id}/messages", unknown)), unknown);
		assertThat(notFound(as("alice", this.client.get().uri("/agents/assistant/sessions/{id}/messages", bobs)),
				bobs)).isEqualTo(Map.of("error", unknownAnswer.get("error"), "message", "No session '" + bobs + "'"));

		notFound(as("alice", this.client.get().uri("/agents/assistant/sessions/{id}/pending", bobs)), bobs);
		notFound(as("alice", this.client.post()
			.uri("/agents/assistant/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", bobs, "message", "what was the plan?"))), bobs);
		notFound(as("alice", this.client.post()
			.uri("/agents/assistant/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", bobs, "message", "what was the plan?"))), bobs);
		notFound(as("alice", this.client.post()
			.uri("/agents/assistant/sessions/{id}/resume", bobs)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("decisions", Map.of()))), bobs);
		notFound(as("alice", this.client.post()
			.uri("/agents/assistant/sessions/{id}/resume/stream", bobs)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("decisions", Map.of()))), bobs);
		notFound(as("alice", this.client.delete().uri("/agents/-/sessions/{id}", bobs)), bobs);

		// bob's conversation is untouched, and his: one turn of his, nothing of alice's
		as("bob", this.client.get().uri("/agents/assistant/sessions/{id}/messages", bobs)).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.length()")
			.isEqualTo(2)
			.jsonPath("$[0].text")
			.isEqualTo("my secret plan");
		// not a 404 for bob: the session is his (nothing waits for approval)
		as("bob", this.client.post()
			.uri("/agents/assistant/sessions/{id}/resume", bobs)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("decisions", Map.of()))).exchange()
			.expectStatus()
			.value((status) -> assertThat(status).isNotEqualTo(404));
	}

	@Test
	void bobDeletesHisSessionAndItIsGoneForHimToo() {
		String bobs = newSession();
		invoke("bob", bobs, "remember this").expectStatus().isOk();

		as("bob", this.client.delete().uri("/agents/-/sessions/{id}", bobs)).exchange().expectStatus().isNoContent();

		notFound(as("bob", this.client.get().uri("/agents/assistant/sessions/{id}/messages", bobs)), bobs);
		// deleted with its owner: the id can be taken again
		invoke("alice", bobs, "mine now").expectStatus().isOk();
		as("alice", this.client.get().uri("/agents/assistant/sessions/{id}/messages", bobs)).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.length()")
			.isEqualTo(2);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aPrincipalListsOnlyItsOwnSessionsWhateverUserIdItPasses() {
		String bobs = newSession();
		String alices = newSession();
		invoke("bob", bobs, "bob's").expectStatus().isOk();
		invoke("alice", alices, "alice's").expectStatus().isOk();

		as("alice", this.client.get().uri("/agents/-/sessions?userId=bob&limit=1000")).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[*].sessionId")
			.value((ids) -> assertThat((List<Object>) ids).contains(alices).doesNotContain(bobs));
	}

	@Test
	void aliceCannotRunInBobsSessionNorSeeHisRuns() {
		String bobs = newSession();
		invoke("bob", bobs, "first").expectStatus().isOk();

		notFound(as("alice", this.client.post()
			.uri("/agents/assistant/runs")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", bobs, "message", "in bob's session"))), bobs);
		notFound(as("alice", this.client.get().uri("/agents/assistant/runs?sessionId={id}", bobs)), bobs);

		String runId = as("bob", this.client.post()
			.uri("/agents/assistant/runs")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", bobs, "message", "a run"))).exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody()
			.get("id")
			.toString();
		as("bob", this.client.get().uri("/agents/assistant/runs/{id}", runId)).exchange().expectStatus().isOk();
		for (String path : List.of("/agents/assistant/runs/{id}", "/agents/assistant/runs/{id}/events")) {
			as("alice", this.client.get().uri(path, runId)).exchange()
				.expectStatus()
				.isNotFound()
				.expectBody()
				.jsonPath("$.error")
				.isEqualTo("not_found");
		}
		as("alice", this.client.post().uri("/agents/assistant/runs/{id}/cancel", runId)).exchange()
			.expectStatus()
			.isNotFound();
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> notFound(WebTestClient.RequestHeadersSpec<?> request, String sessionId) {
		Map<String, Object> body = request.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.NOT_FOUND)
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
		assertThat(body).containsEntry("error", "not_found").containsEntry("message", "No session '" + sessionId + "'");
		return body;
	}

}
