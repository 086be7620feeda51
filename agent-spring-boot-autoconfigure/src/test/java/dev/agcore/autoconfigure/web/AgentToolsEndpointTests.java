package dev.agcore.autoconfigure.web;

import java.util.List;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code GET {base-path}/{agent}/tools}.
 */
class AgentToolsEndpointTests {

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
		.withBean("shopTools", ShopTools.class)
		.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.tools=find_product,delete_product");

	@Test
	void listsTheToolsInScopeWithTheSchemaSentToTheModel() {
		this.contextRunner.run((context) -> {
			JsonNode tools = get(client(context), "/agents/assistant/tools", 200);
			assertThat(tools.valueStream().map((tool) -> tool.get("name").asString())).containsExactly("find_product",
					"delete_product");
			JsonNode find = tools.get(0);
			assertThat(find.get("description").asString()).isEqualTo("Find products by name");
			assertThat(find.get("category").asString()).isEqualTo("catalog");
			assertThat(find.get("permission").asString()).isEqualTo("read-only");
			assertThat(find.get("returnDirect").asBoolean()).isFalse();
			assertThat(find.get("timeout").asString()).isEqualTo("PT5S");
			JsonNode delete = tools.get(1);
			assertThat(delete.get("category").isNull()).isTrue();
			assertThat(delete.get("permission").asString()).isEqualTo("destructive");
			assertThat(delete.get("returnDirect").asBoolean()).isTrue();
			assertThat(delete.get("timeout").isNull()).isTrue();
			List<ToolCallback> callbacks = context.getBean(Agent.class).toolCallbacks();
			for (int i = 0; i < callbacks.size(); i++) {
				assertThat(tools.get(i).get("inputSchema")).isEqualTo(callbacks.get(i).spec().inputSchema());
			}
			assertThat(find.get("inputSchema").get("properties").get("query").get("description").asString())
				.isEqualTo("Part of the name");
		});
	}

	@Test
	void unknownAgentIsNotFound() {
		this.contextRunner.run((context) -> {
			JsonNode error = get(client(context), "/agents/nobody/tools", 404);
			assertThat(error.get("error").asString()).isEqualTo("not_found");
			assertThat(error.get("message").asString()).isEqualTo("No agent named 'nobody'; known agents: [assistant]");
		});
	}

	private static WebTestClient client(ApplicationContext context) {
		return WebTestClient.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class)).build();
	}

	private static JsonNode get(WebTestClient client, String uri, int status) {
		String body = client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		return AgentJson.mapper().readTree(body);
	}

	static class ShopTools {

		@Tool(name = "find_product", description = "Find products by name", category = "catalog",
				permission = "read-only", timeout = "5s", secrets = {})
		String find(@ToolParam(description = "Part of the name") String query, @ToolParam(required = false) Integer limit) {
			return "[]";
		}

		@Tool(name = "delete_product", description = "Delete a product", permission = "destructive",
				returnDirect = true, secrets = {})
		String delete(String sku) {
			return "Deleted " + sku;
		}

		@Tool(name = "restock", description = "Restock a product", secrets = {})
		String restock(String sku, int quantity) {
			return "Restocked";
		}

	}

}
