package dev.agcore.autoconfigure.agent;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the model, fallback models and allowed models of configured agents, over a
 * registry of named models.
 */
class ConfiguredAgentModelsTests {

	private final MockWebServer server = new MockWebServer();

	private final ScriptedChatModel local = ScriptedChatModel.replaying(ScriptedChatModel.text("from the local model"));

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void start() throws Exception {
		this.server.start();
		// three models: two on one provider with their own options, one on a ChatModel bean
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					AgentAutoConfiguration.class))
			.withBean("localModel", ChatModel.class, () -> this.local)
			.withPropertyValues("agent.retry.max-attempts=1",
					"agent.providers.openai.base-url=" + this.server.url("/v1"),
					"agent.providers.openai.api-key=sk-test", "agent.providers.openai.model=gpt-4o-mini",
					"agent.models.strong.provider=openai", "agent.models.strong.model=gpt-big",
					"agent.models.strong.options.temperature=0.7", "agent.models.fast.provider=openai",
					"agent.models.fast.model=gpt-small", "agent.models.fast.options.temperature=0.1",
					"agent.models.fast.options.max-tokens=64", "agent.models.fast.price.input=1000000",
					"agent.models.fast.price.output=2000000", "agent.models.private.provider=localModel",
					"agent.models.private.model=llama-x");
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void fallbackModelAnswersWhenTheAgentsModelFails() {
		this.server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"overloaded\"}}").build());
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=strong", "agent.agents.assistant.fallback-models=private")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class).call("s1", "Hello");
				assertThat(result.output()).isEqualTo("from the local model");
				assertThat(this.server.getRequestCount()).isEqualTo(1);
				JsonNode sent = AgentJson.mapper().readTree(this.server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
				assertThat(sent.get("model").asString()).isEqualTo("gpt-big");
				assertThat(sent.get("temperature").asDouble()).isEqualTo(0.7);
				assertThat(this.local.requests()).singleElement()
					.satisfies((request) -> assertThat(request.options().model()).isEqualTo("llama-x"));
			});
	}

	@Test
	void fallbackModelsBackUpAModelTheRequestChose() {
		this.server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"overloaded\"}}").build());
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=strong", "agent.agents.assistant.fallback-models=private",
					"agent.agents.assistant.allowed-models=fast")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class)
					.invoke(AgentRequest.of("s1", "Hello").withOptions(ChatOptions.builder().model("fast").build()))
					.block(Duration.ofSeconds(10));
				assertThat(result.output()).isEqualTo("from the local model");
				JsonNode sent = AgentJson.mapper().readTree(this.server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
				assertThat(sent.get("model").asString()).isEqualTo("gpt-small");
				assertThat(this.local.requests()).hasSize(1);
			});
	}

	@Test
	void callsOfAPricedFallbackModelAreCosted() {
		this.server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"overloaded\"}}").build());
		this.server.enqueue(completion());
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("agent.agents.assistant.model=strong", "agent.agents.assistant.fallback-models=fast")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class).call("s1", "Hello");
				assertThat(result.output()).isEqualTo("Hi");
				assertThat(result.cost()).isEqualByComparingTo("18");
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.cost")
					.tags("agent", "assistant", "provider", "openai", "model", "fast")
					.counter()
					.count()).isEqualTo(18.0);
			});
	}

	@Test
	void namedModelSendsItsOptionsAndRecordsItsCost() {
		this.server.enqueue(completion());
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("agent.agents.assistant.model=fast")
			.run((context) -> {
				AgentResult result = context.getBean("assistant", Agent.class).call("s1", "Hello");
				assertThat(result.cost()).isEqualByComparingTo("18");
				JsonNode sent = AgentJson.mapper().readTree(this.server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
				assertThat(sent.get("model").asString()).isEqualTo("gpt-small");
				assertThat(sent.get("temperature").asDouble()).isEqualTo(0.1);
				assertThat(sent.get("max_tokens").asInt()).isEqualTo(64);
				// 12 prompt and 3 completion tokens at 1 and 2 per token
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.cost")
					.tags("agent", "assistant", "provider", "openai", "model", "fast")
					.counter()
					.count()).isEqualTo(18.0);
			});
	}

	@Test
	void allowedModelsAreTheModelTheFallbacksAndTheListedOnes() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=fast", "agent.agents.assistant.fallback-models=private",
					"agent.agents.assistant.allowed-models=strong")
			.run((context) -> assertThat(context.getBean(ConfiguredAgentFactory.class).allowedModels("assistant"))
				.containsOnlyKeys("fast", "private", "strong"));
	}

	@Test
	void modelAndProviderBothSetFail() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=fast", "agent.agents.assistant.provider=openai")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.agents.assistant.model ('fast') and agent.agents.assistant.provider ('openai') "
						+ "are both set"));
	}

	@Test
	void unknownModelFailsListingTheKnownNames() {
		this.contextRunner.withPropertyValues("agent.agents.assistant.model=huge")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.assistant.model: unknown model 'huge'; models: [strong, fast, private]; "
						+ "configured providers: [openai]; ChatModel beans: [localModel]"));
	}

	@Test
	void unknownFallbackModelFails() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=fast", "agent.agents.assistant.fallback-models=fast,nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("agent.agents.assistant.fallback-models[1]: unknown model 'nope'; models: "));
	}

	@Test
	void unknownAllowedModelFails() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=fast", "agent.agents.assistant.allowed-models=nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("agent.agents.assistant.allowed-models[0]: unknown model 'nope'"));
	}

	@Test
	void fallbackModelsAndFallbackMiddlewareTogetherFail() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.model=fast", "agent.agents.assistant.fallback-models=private",
					"agent.agents.assistant.middleware.model-fallback.models=strong")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.agents.assistant.fallback-models and "
						+ "agent.agents.assistant.middleware.model-fallback are both set"));
	}

	@Test
	void compactionUsesTheContextWindowOfTheAgentsNamedModel() {
		// a too-small window fails, which shows that the model's window was taken
		this.contextRunner
			.withPropertyValues("agent.models.private.context-window=30000", "agent.agents.assistant.model=private",
					"agent.agents.assistant.memory.compaction.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("agent.agents.assistant.memory.compaction.context-window (30000) must be "
						+ "larger than"));
		this.contextRunner
			.withPropertyValues("agent.models.private.context-window=30000", "agent.agents.assistant.model=private",
					"agent.agents.assistant.memory.compaction.enabled=true",
					"agent.agents.assistant.memory.compaction.context-window=200000")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void misspelledNamedModelPropertyFails() {
		this.contextRunner.withPropertyValues("agent.models.fast.pirce.input=1", "agent.agents.assistant.model=fast")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("Unknown configuration properties: agent.models.fast.pirce.input"));
	}

	private static MockResponse completion() {
		String body = """
				{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-small-2025",
				 "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
				 "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}}
				""";
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json").body(body).build();
	}

}
