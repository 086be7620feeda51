package dev.agcore.autoconfigure.web.security;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.reactive.server.SecurityMockServerConfigurers.mockUser;
import static org.springframework.security.test.web.reactive.server.SecurityMockServerConfigurers.springSecurity;

/**
 * The ownership tests on the in-memory stores; and, on the same application, roles per
 * agent, a tool restricted to a role, the principal in tools, and CORS.
 */
class InMemorySessionOwnershipTests extends AbstractSessionOwnershipTests {

	private static final String APP = "https://app.example.com";

	@Override
	protected Class<?> storeConfiguration() {
		return null;
	}

	@Override
	protected List<String> storeProperties() {
		return List.of();
	}

	// docs/security.md: roles, tool roles and CORS
	@Override
	protected List<String> moreProperties() {
		return List.of("agent.agents.admin-bot.model=scripted", "agent.agents.admin-bot.roles=ADMIN",
				"agent.agents.assistant.permissions.tool-roles[adminOp]=ADMIN",
				"agent.web.cors.allowed-origins=" + APP);
	}

	@Test
	void anAgentWithRolesIsNotFoundForCallersWithoutOne() {
		agentNames("alice").isEqualTo(List.of("assistant"));
		agentNames("root").isEqualTo(List.of("admin-bot", "assistant"));

		as("alice", client().post()
			.uri("/agents/admin-bot/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", newSession(), "message", "hi"))).exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.message")
			.isEqualTo("No agent named 'admin-bot'; known agents: [assistant]");
		as("alice", client().get().uri("/agents/admin-bot/tools")).exchange().expectStatus().isNotFound();
		as("alice", client().get().uri("/agents/admin-bot/runs?sessionId=s1")).exchange().expectStatus().isNotFound();
		as("alice", client().post()
			.uri("/agents/admin-bot/runs")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", newSession(), "message", "hi"))).exchange()
			.expectStatus()
			.isNotFound();

		as("root", client().post()
			.uri("/agents/admin-bot/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", newSession(), "message", "hi"))).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.output")
			.isEqualTo("echo: hi");
	}

	@Test
	void rolesComeFromTheSpringSecurityAuthenticationsAuthorities() {
		WebTestClient mocked = WebTestClient.bindToApplicationContext(context())
			.apply(springSecurity())
			.configureClient()
			.build();
		mocked.mutateWith(mockUser("carol").roles("ADMIN")).get().uri("/agents").exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[*].name")
			.isEqualTo(List.of("admin-bot", "assistant"));
		mocked.mutateWith(mockUser("dave").roles("USER")).get().uri("/agents").exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[*].name")
			.isEqualTo(List.of("assistant"));
	}

	@Test
	void aToolSeesThePrincipalAndTheSecurityContextOnItsOwnThread() {
		String session = newSession();
		invoke("alice", session, "call whoami").expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.output")
			.isEqualTo("tool said: alice");

		String seen = context().getBean(SecuredAgentsApplication.WhoTools.class).seen.get("alice");
		assertThat(seen).startsWith("alice | holder alice | thread ").contains("boundedElastic");
	}

	@Test
	void aToolRestrictedToARoleRunsOnlyForThatRole() {
		invoke("alice", newSession(), "call adminOp").expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.output")
			.isEqualTo("tool said: Error: tool 'adminOp' was denied: tool 'adminOp' needs one of the roles [ADMIN], "
					+ "which the caller does not have");
		invoke("root", newSession(), "call adminOp").expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.output")
			.isEqualTo("tool said: admin done");
	}

	@Test
	void aPreflightFromAnAllowedOriginIsAnsweredWithoutCredentials() {
		client().options()
			.uri("/agents/assistant/invoke")
			.header(HttpHeaders.ORIGIN, APP)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "authorization, content-type")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, APP)
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, (methods) -> assertThat(methods).contains("POST"))
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "1800");
		// the actual call still needs credentials, and is answered with the CORS header
		client().get().uri("/agents").header(HttpHeaders.ORIGIN, APP).exchange().expectStatus().isUnauthorized();
		as("alice", client().get().uri("/agents").header(HttpHeaders.ORIGIN, APP)).exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, APP);
	}

	@Test
	void aPreflightFromAnotherOriginIsRefused() {
		client().options()
			.uri("/agents/assistant/invoke")
			.header(HttpHeaders.ORIGIN, "https://evil.example")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN);
		// a method not allowed is refused too
		client().method(HttpMethod.OPTIONS)
			.uri("/agents/assistant/invoke")
			.header(HttpHeaders.ORIGIN, APP)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "PUT")
			.exchange()
			.expectStatus()
			.isForbidden();
	}

	private org.springframework.test.web.reactive.server.JsonPathAssertions agentNames(String user) {
		return as(user, client().get().uri("/agents")).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[*].name");
	}

}
