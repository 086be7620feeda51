package dev.agcore.sample;

import dev.agcore.json.AgentJson;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tools of the sample's agent as people see them: {@code /actuator/agents} and
 * {@code /agents/assistant/tools}, over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class AgentsActuatorEndpointTests {

	@Autowired
	private WebTestClient client;

	@Autowired
	private Agent assistant;

	@Test
	void actuatorDescribesTheAssistant() {
		JsonNode agents = get("/actuator/agents").get("agents");
		assertThat(agents.propertyNames()).containsExactly("assistant", "planner", "researcher", "librarian");
		JsonNode assistant = agents.get("assistant");
		assertThat(assistant.get("provider").asString()).isEqualTo("scripted");
		assertThat(assistant.get("systemPromptLength").asInt()).isEqualTo(this.assistant.systemPrompt().length());
		assertThat(assistant.has("systemPrompt")).isFalse();
		assertThat(assistant.get("middleware").valueStream().map(JsonNode::asString))
			.containsExactlyElementsOf(this.assistant.middleware().stream().map((each) -> each.name()).toList());
		assertThat(assistant.get("limits").get("maxIterations").asInt()).isEqualTo(6);
		assertThat(assistant.get("limits").get("toolTimeout").asString()).isEqualTo("PT10S");
		assertThat(assistant.get("limits").get("turnTimeout").asString()).isEqualTo("PT5M");
		assertThat(assistant.get("limits").get("maxToolResultLength").asInt()).isEqualTo(65536);
		assertSameTools(assistant.get("tools"));
		assertThat(get("/actuator/agents/assistant").get("name").asString()).isEqualTo("assistant");
		this.client.get().uri("/actuator/agents/nobody").exchange().expectStatus().isNotFound();
	}

	@Test
	void toolsEndpointShowsTheSchemasSentToTheModel() {
		assertSameTools(get("/agents/assistant/tools"));
	}

	private void assertSameTools(JsonNode tools) {
		assertThat(tools.size()).isEqualTo(this.assistant.toolCallbacks().size());
		for (int i = 0; i < tools.size(); i++) {
			ToolCallback tool = this.assistant.toolCallbacks().get(i);
			assertThat(tools.get(i).get("name").asString()).isEqualTo(tool.spec().name());
			assertThat(tools.get(i).has("category")).isTrue();
			assertThat(tools.get(i).get("permission").asString()).isEqualTo(tool.metadata().permission().value());
			assertThat(tools.get(i).get("inputSchema")).isEqualTo(tool.spec().inputSchema());
		}
	}

	private JsonNode get(String uri) {
		return AgentJson.mapper()
			.readTree(this.client.get()
				.uri(uri)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody());
	}

}
