package dev.agcore.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Against {@code prompts-only-server.cjs}, a server that declares neither tools nor
 * resources: the client must not ask it for either, and asking for its resources must not
 * cost the connection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PromptsOnlyServerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private McpClientRegistry registry;

	@BeforeAll
	void connect() {
		this.registry = McpClientRegistry.builder().server(McpTestServers.promptsOnly("prompts")).build();
		StepVerifier.create(this.registry.start()).expectComplete().verify(TIMEOUT);
	}

	@AfterAll
	void closeRegistry() {
		if (this.registry != null) {
			this.registry.close();
		}
	}

	@Test
	void aServerWithoutToolsConnectsAndOffersNone() {
		assertThat(this.registry.tools()).isEmpty();
		McpServerStatus status = connection().status();
		assertThat(status.state()).isEqualTo(McpConnectionState.CONNECTED);
		assertThat(status.toolCount()).isZero();
	}

	@Test
	void itsPromptsAreListedAndFetched() {
		StepVerifier.create(connection().listPrompts())
			.assertNext((prompts) -> assertThat(prompts).extracting(McpPrompt::name).containsExactly("greeting"))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(connection().getPrompt("greeting", Map.of()))
			.assertNext((prompt) -> assertThat(prompt.text()).isEqualTo("Hello from greeting."))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void aServerWithoutResourcesListsNoneAndKeepsItsConnection() {
		McpServerStatus before = connection().status();
		StepVerifier.create(connection().listResources())
			.assertNext((resources) -> assertThat(resources).isEmpty())
			.expectComplete()
			.verify(TIMEOUT);
		assertConnectedAsBefore(before);
	}

	@Test
	void readingAResourceOfAServerWithoutResourcesFailsNamingTheServerAndKeepsItsConnection() {
		McpServerStatus before = connection().status();
		StepVerifier.create(connection().readResource("test://nothing"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(McpException.class)
				.hasMessage("MCP server 'prompts' offers no resources (it declared no resources capability)"))
			.verify(TIMEOUT);
		StepVerifier.create(connection().readResourcesAsText(List.of("test://nothing")))
			.expectError(McpException.class)
			.verify(TIMEOUT);
		assertConnectedAsBefore(before);
	}

	private void assertConnectedAsBefore(McpServerStatus before) {
		McpServerStatus after = connection().status();
		assertThat(after.state()).isEqualTo(McpConnectionState.CONNECTED);
		// the same session: a reconnection would have a later start
		assertThat(after.connectedSince()).isEqualTo(before.connectedSince());
	}

	private McpConnection connection() {
		return this.registry.connection("prompts").orElseThrow();
	}

}
