package dev.agcore.autoconfigure.web;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code GET {base-path}/models}.
 */
class AgentModelsEndpointTests {

	private final ReactiveWebApplicationContextRunner baseRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner contextRunner = this.baseRunner
		.withBean("local", ChatModel.class, () -> ScriptedChatModel.replaying().withModelName("llama3"))
		.withPropertyValues("agent.web.enabled=true", "agent.providers.openai.base-url=http://user:pw@localhost:1/v1",
				"agent.providers.openai.api-key=sk-secret", "agent.providers.openai.model=gpt-4o-mini",
				"agent.models.fast.provider=openai", "agent.models.fast.model=gpt-4.1-mini",
				"agent.models.fast.context-window=1047576", "agent.models.fast.price.input=0.40",
				"agent.models.fast.price.output=1.60", "agent.agents.assistant.model=fast");

	@Test
	void listsNamedModelsProvidersAndBeansWithoutCredentials() {
		this.contextRunner.run((context) -> {
			WebTestClient client = WebTestClient
				.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class))
				.build();
			String body = new String(client.get()
				.uri("/agents/models")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.returnResult()
				.getResponseBodyContent());
			assertThat(body).doesNotContain("sk-secret").doesNotContain("pw@").doesNotContain("localhost");
			JsonNode models = AgentJson.mapper().readTree(body);
			assertThat(models.valueStream().map((model) -> model.get("name").asString())).containsExactly("fast",
					"openai", "local");
			JsonNode fast = models.get(0);
			assertThat(fast.get("kind").asString()).isEqualTo("model");
			assertThat(fast.get("provider").asString()).isEqualTo("openai");
			assertThat(fast.get("providerType").asString()).isEqualTo("openai");
			assertThat(fast.get("model").asString()).isEqualTo("gpt-4.1-mini");
			assertThat(fast.get("contextWindow").asInt()).isEqualTo(1047576);
			assertThat(fast.get("price").get("input").decimalValue()).isEqualByComparingTo("0.40");
			assertThat(fast.get("price").get("output").decimalValue()).isEqualByComparingTo("1.60");
			assertThat(fast.get("capabilities").valueStream().map(JsonNode::asString)).contains("TOOLS", "STREAMING");
			JsonNode local = models.get(2);
			assertThat(local.get("kind").asString()).isEqualTo("bean");
			assertThat(local.get("model").asString()).isEqualTo("llama3");
			assertThat(local.get("price").isNull()).isTrue();
		});
	}

	@Test
	void invokeShowsTheCostBesideTheUsageWhenTheModelHasAPrice() {
		this.baseRunner
			.withBean("local", ChatModel.class, () -> ScriptedChatModel.replaying(ScriptedChatModel.text("answer"), ScriptedChatModel.text("answer")))
			.withPropertyValues("agent.web.enabled=true", "agent.models.priced.provider=local",
					"agent.models.priced.price.input=1000000", "agent.models.priced.price.output=2000000",
					"agent.models.free.provider=local", "agent.agents.paid.model=priced", "agent.agents.gratis.model=free")
			.run((context) -> {
				WebTestClient client = WebTestClient
					.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class))
					.build();
				JsonNode paid = invoke(client, "paid");
				assertThat(paid.get("usage").get("inputTokens").asLong()).isEqualTo(10);
				// 10 input and 1 output token at 1 and 2 per token
				assertThat(paid.get("cost").decimalValue()).isEqualByComparingTo("12");
				assertThat(invoke(client, "gratis").has("cost")).isFalse();
			});
	}

	@Test
	void invokeShowsTheUsageDetailsTheProviderReported() {
		dev.agcore.model.ChatResponse cached = new dev.agcore.model.ChatResponse(
				dev.agcore.message.AssistantMessage.of("answer"), new dev.agcore.model.Usage(100, 20, 120, 80, 0, 5),
				dev.agcore.model.FinishReason.STOP, "");
		this.baseRunner.withBean("local", ChatModel.class, () -> ScriptedChatModel.replaying(cached))
			.withPropertyValues("agent.web.enabled=true", "agent.agents.plain.model=local")
			.run((context) -> {
				WebTestClient client = WebTestClient
					.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class))
					.build();
				JsonNode usage = invoke(client, "plain").get("usage");
				assertThat(usage.get("inputTokens").asLong()).isEqualTo(100);
				assertThat(usage.get("cachedInputTokens").asLong()).isEqualTo(80);
				assertThat(usage.get("reasoningTokens").asLong()).isEqualTo(5);
				assertThat(usage.has("cacheWriteTokens")).as("a detail not reported is left out").isFalse();
			});
	}

	@Test
	void aRequestTheModelRefusesBeforeSendingIsA422NotAModelError() {
		ChatModel refusing = new ChatModel() {

			@Override
			public reactor.core.publisher.Mono<dev.agcore.model.ChatResponse> call(dev.agcore.model.ChatRequest request) {
				return reactor.core.publisher.Mono.error(new dev.agcore.model.ModelRequestException("claude", 0,
						"claude cannot take media of type audio/wav"));
			}

			@Override
			public reactor.core.publisher.Flux<dev.agcore.model.ChatChunk> stream(dev.agcore.model.ChatRequest request) {
				return reactor.core.publisher.Flux.error(new UnsupportedOperationException());
			}

		};
		this.baseRunner.withBean("claude", ChatModel.class, () -> refusing)
			.withPropertyValues("agent.web.enabled=true", "agent.agents.plain.model=claude")
			.run((context) -> {
				WebTestClient client = WebTestClient
					.bindToRouterFunction(context.getBean("agentRouterFunction", RouterFunction.class))
					.build();
				String body = client.post()
					.uri("/agents/plain/invoke")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue("{\"sessionId\":\"s1\",\"message\":\"Hi\"}")
					.exchange()
					.expectStatus()
					.isEqualTo(422)
					.expectBody(String.class)
					.returnResult()
					.getResponseBody();
				assertThat(body).contains("\"unsupported_request\"").contains("audio/wav");
			});
	}

	private static JsonNode invoke(WebTestClient client, String agent) {
		String body = client.post()
			.uri("/agents/" + agent + "/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"sessionId\":\"s-" + agent + "\",\"message\":\"Hi\"}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		return AgentJson.mapper().readTree(body);
	}

}
