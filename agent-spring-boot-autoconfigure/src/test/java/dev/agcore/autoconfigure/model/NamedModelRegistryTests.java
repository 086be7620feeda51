package dev.agcore.autoconfigure.model;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelDescriptor;
import dev.agcore.model.ModelPrice;
import dev.agcore.provider.support.RateLimitListener;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the named models of {@code agent.models} in {@link ChatModelAutoConfiguration}.
 */
class NamedModelRegistryTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class));

	private final MockWebServer server = new MockWebServer();

	@BeforeEach
	void startServer() throws Exception {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void modelsOnOneProviderSendTheirOwnModelAndOptions() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("fast"));
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("strong"));
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.providers.openai.options.temperature=0.5",
					"agent.models.fast.provider=openai", "agent.models.fast.model=gpt-small",
					"agent.models.fast.options.temperature=0.1", "agent.models.fast.options.max-tokens=50",
					"agent.models.strong.provider=openai", "agent.models.strong.model=gpt-big",
					"agent.models.strong.options.max-tokens=500")
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				assertThat(registry.modelNames()).containsExactly("fast", "strong");
				assertThat(registry.names()).containsExactly("fast", "strong", "openai");
				registry.get("fast").call(request()).block();
				registry.get("strong").call(request()).block();
				JsonNode fast = body(this.server.takeRequest(5, TimeUnit.SECONDS));
				assertThat(fast.get("model").asString()).isEqualTo("gpt-small");
				assertThat(fast.get("temperature").asDouble()).isEqualTo(0.1);
				assertThat(fast.get("max_tokens").asInt()).isEqualTo(50);
				JsonNode strong = body(this.server.takeRequest(5, TimeUnit.SECONDS));
				assertThat(strong.get("model").asString()).isEqualTo("gpt-big");
				// not set on the model: the provider's
				assertThat(strong.get("temperature").asDouble()).isEqualTo(0.5);
				assertThat(strong.get("max_tokens").asInt()).isEqualTo(500);
			});
	}

	@Test
	void modelOnChatModelBeanGetsItsModelNameAndOptionsPerRequest() {
		ScriptedChatModel scripted = ScriptedChatModel.replaying(ScriptedChatModel.text("hi"));
		this.contextRunner.withBean("local", ChatModel.class, () -> scripted)
			.withPropertyValues("agent.models.private.provider=local", "agent.models.private.model=llama-x",
					"agent.models.private.options.temperature=0.3")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("private");
				model.call(request()).block();
				assertThat(scripted.requests()).singleElement().satisfies((sent) -> {
					assertThat(sent.options().model()).isEqualTo("llama-x");
					assertThat(sent.options().temperature()).isEqualTo(0.3);
				});
				assertThat(model.modelName()).isEqualTo("llama-x");
			});
	}

	@Test
	void providerMayBeOmittedWithExactlyOneProvider() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.fast.model=gpt-small")
			.run((context) -> assertThat(context.getBean(ChatModelRegistry.class).get("fast").modelName())
				.isEqualTo("gpt-small"));
	}

	@Test
	void providerWithoutModelOfItsOwnServesItsNamedModelsOnly() {
		this.contextRunner
			.withPropertyValues("agent.providers.openai.base-url=" + this.server.url("/v1"),
					"agent.providers.openai.api-key=sk-test", "agent.models.fast.model=gpt-small",
					"agent.models.strong.provider=openai", "agent.models.strong.model=gpt-big")
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				assertThat(registry.names()).containsExactly("fast", "strong");
				assertThat(registry.get("strong").modelName()).isEqualTo("gpt-big");
			});
	}

	@Test
	void providerWithoutModelAndWithoutNamedModelsFails() {
		this.contextRunner
			.withPropertyValues("agent.providers.openai.base-url=" + this.server.url("/v1"),
					"agent.providers.openai.api-key=sk-test")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("agent.providers.openai.model must be set"));
	}

	@Test
	void omittedProviderWithTwoProvidersFails() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.providers.other.type=openai", "agent.providers.other.base-url=http://localhost:1",
					"agent.providers.other.model=m", "agent.models.fast.model=gpt-small")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.models.fast.provider must be set when there is not exactly one provider; "
						+ "configured providers: [openai, other]; ChatModel beans: []"));
	}

	@Test
	void unknownProviderFailsNamingTheKnownOnes() {
		this.contextRunner.withPropertyValues(provider())
			.withBean("local", ChatModel.class, ScriptedChatModel::replaying)
			.withPropertyValues("agent.models.fast.provider=nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.models.fast.provider: unknown provider 'nope'; configured providers: [openai]; "
						+ "ChatModel beans: [local]"));
	}

	@Test
	void modelNamedLikeProviderFails() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.openai.model=gpt-small")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.models.openai and agent.providers.openai share the name 'openai'"));
	}

	@Test
	void modelNamedLikeBeanFails() {
		this.contextRunner.withPropertyValues(provider())
			.withBean("fast", ChatModel.class, ScriptedChatModel::replaying)
			.withPropertyValues("agent.models.fast.provider=openai")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.models.fast and the ChatModel bean 'fast' share the name 'fast'"));
	}

	@Test
	void twoChatModelBeansWithoutPrimaryAndProvidersLiveSideBySide() {
		this.contextRunner.withPropertyValues(provider())
			.withBean("first", ChatModel.class, ScriptedChatModel::replaying)
			.withBean("second", ChatModel.class, ScriptedChatModel::replaying)
			.withPropertyValues("agent.models.fast.provider=first", "agent.models.strong.provider=openai")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ChatModelRegistry.class).names())
					.containsExactly("fast", "strong", "openai", "first", "second");
			});
	}

	@Test
	void priceAndContextWindowAreAttachedAndDescribedWithoutCredentials() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.fast.model=gpt-small", "agent.models.fast.context-window=128000",
					"agent.models.fast.price.input=0.15", "agent.models.fast.price.output=0.60",
					"agent.models.fast.price.cached-input=0.075")
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				ConfiguredChatModel fast = (ConfiguredChatModel) registry.get("fast");
				assertThat(fast.name()).isEqualTo("fast");
				assertThat(fast.contextWindow()).isEqualTo(128000);
				assertThat(fast.price()).isEqualTo(new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.6"),
						new BigDecimal("0.075"), null));
				List<ModelDescriptor> descriptors = registry.descriptors();
				assertThat(descriptors).extracting(ModelDescriptor::name).containsExactly("fast", "openai");
				ModelDescriptor descriptor = descriptors.get(0);
				assertThat(descriptor.kind()).isEqualTo("model");
				assertThat(descriptor.provider()).isEqualTo("openai");
				assertThat(descriptor.providerType()).isEqualTo("openai");
				assertThat(descriptor.model()).isEqualTo("gpt-small");
				assertThat(descriptor.contextWindow()).isEqualTo(128000);
				assertThat(AgentJson.mapper().writeValueAsString(descriptors)).doesNotContain("sk-test")
					.doesNotContain(this.server.url("/").toString());
			});
	}

	@Test
	void priceWithoutOutputFails() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.fast.price.input=0.15")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.models.fast.price.input and agent.models.fast.price.output must both be set"));
	}

	@Test
	void negativePriceFails() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.fast.price.input=-1", "agent.models.fast.price.output=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.models.fast.price.input must be a non-negative number (was -1.0)"));
	}

	@Test
	void badNamedModelOptionIsReportedWithItsProperty() {
		this.contextRunner.withPropertyValues(provider())
			.withPropertyValues("agent.models.fast.options.max-tokens=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.models.fast.options.max-tokens must be at least 1 (was 0)"));
	}

	@Test
	void rateLimitMetricsAreRecordedWhenThereIsAMeterRegistry() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(RateLimitMetrics.class));
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(RateLimitListener.class));
	}

	@Test
	void userRateLimitListenerWins() {
		RateLimitListener listener = (provider, model, headers) -> {
		};
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(RateLimitListener.class, () -> listener)
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimitMetrics.class)
				.getBean(RateLimitListener.class)
				.isSameAs(listener));
	}

	private String[] provider() {
		return new String[] { "agent.providers.openai.base-url=" + this.server.url("/v1"),
				"agent.providers.openai.api-key=sk-test", "agent.providers.openai.model=gpt-4o-mini" };
	}

	private static ChatRequest request() {
		return ChatRequest.of(List.of(new UserMessage("Hello")));
	}

	private static JsonNode body(RecordedRequest request) {
		return AgentJson.mapper().readTree(request.getBody().utf8());
	}

}
