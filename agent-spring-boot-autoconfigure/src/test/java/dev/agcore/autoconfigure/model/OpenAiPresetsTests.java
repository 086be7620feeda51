package dev.agcore.autoconfigure.model;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.json.AgentJson;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelCapability;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiQuirks;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.resilience.RetryingChatModel;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the OpenAI-compatible presets of {@link OpenAiProviderFactory}: the URL,
 * headers and quirks each type fills in, checked on the requests a local server receives.
 */
class OpenAiPresetsTests {

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

	@ParameterizedTest
	@CsvSource({ "openai, https://api.openai.com/v1", "deepseek, https://api.deepseek.com",
			"qwen, https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
			"dashscope, https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "mistral, https://api.mistral.ai/v1",
			"groq, https://api.groq.com/openai/v1", "openrouter, https://openrouter.ai/api/v1",
			"vllm, http://localhost:8000/v1", "lm-studio, http://localhost:1234/v1" })
	void presetFillsTheBaseUrl(String type, String baseUrl) {
		this.contextRunner
			.withPropertyValues("agent.providers.p.type=" + type, "agent.providers.p.api-key=sk-test",
					"agent.providers.p.model=m")
			.run((context) -> {
				OpenAiSettings settings = settings(context.getBean(ChatModelRegistry.class).get("p"));
				assertThat(settings.baseUrl()).isEqualTo(baseUrl);
				assertThat(settings.chatPath()).isEqualTo("/chat/completions");
				assertThat(settings.authStyle()).isEqualTo(OpenAiSettings.AuthStyle.BEARER);
			});
	}

	@Test
	void presetsSetTheirQuirksAndCapabilities() {
		this.contextRunner
			.withPropertyValues("agent.providers.ds.type=deepseek", "agent.providers.ds.api-key=k",
					"agent.providers.ds.model=deepseek-chat", "agent.providers.mi.type=mistral",
					"agent.providers.mi.api-key=k", "agent.providers.mi.model=mistral-small-latest",
					"agent.providers.oa.type=openai", "agent.providers.oa.api-key=k",
					"agent.providers.oa.model=gpt-4.1",
					"agent.providers.local.type=openai",
					"agent.providers.local.base-url=http://localhost:11434/v1", "agent.providers.local.model=llama3")
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				assertThat(settings(registry.get("ds")).quirks()).isEqualTo(OpenAiQuirks.DEEPSEEK);
				assertThat(registry.get("ds").capabilities()).doesNotContain(ModelCapability.IMAGES,
						ModelCapability.STRUCTURED_OUTPUT);
				assertThat(settings(registry.get("mi")).quirks()).isEqualTo(OpenAiQuirks.MISTRAL);
				assertThat(settings(registry.get("oa")).quirks()).isEqualTo(OpenAiQuirks.OPENAI);
				assertThat(registry.get("oa").capabilities()).contains(ModelCapability.PDF, ModelCapability.IMAGES,
						ModelCapability.STRUCTURED_OUTPUT);
				assertThat(settings(registry.get("local")).quirks()).isEqualTo(OpenAiQuirks.COMPATIBLE);
			});
	}

	@Test
	void configuredBaseUrlWinsAndKeyIsSentAsBearer() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("Hi"));
		this.contextRunner
			.withPropertyValues("agent.providers.ds.type=deepseek",
					"agent.providers.ds.base-url=" + this.server.url("/"),
					"agent.providers.ds.api-key=sk-ds", "agent.providers.ds.model=deepseek-chat")
			.run((context) -> call(context.getBean(ChatModelRegistry.class).get("ds")));
		RecordedRequest request = take();
		assertThat(request.getTarget()).isEqualTo("/chat/completions");
		assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-ds");
	}

	@Test
	void azureSendsTheDeploymentUrlApiKeyHeaderAndDefaultApiVersion() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("Hi"));
		this.contextRunner
			.withPropertyValues("agent.providers.azure.type=azure-openai",
					"agent.providers.azure.base-url=" + this.server.url("/"), "agent.providers.azure.api-key=az-key",
					"agent.providers.azure.model=my-gpt4o")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("azure");
				assertThat(settings(model).quirks()).isEqualTo(OpenAiQuirks.AZURE);
				call(model);
			});
		RecordedRequest request = take();
		assertThat(request.getTarget())
			.isEqualTo("/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21");
		assertThat(request.getHeaders().get("api-key")).isEqualTo("az-key");
		assertThat(request.getHeaders().get("Authorization")).isNull();
	}

	@Test
	void azureTakesTheConfiguredApiVersion() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("Hi"));
		this.contextRunner
			.withPropertyValues("agent.providers.azure.type=azure-openai",
					"agent.providers.azure.base-url=" + this.server.url("/"), "agent.providers.azure.api-key=az-key",
					"agent.providers.azure.model=dep", "agent.providers.azure.api-version=2025-04-01-preview")
			.run((context) -> call(context.getBean(ChatModelRegistry.class).get("azure")));
		assertThat(take().getTarget())
			.isEqualTo("/openai/deployments/dep/chat/completions?api-version=2025-04-01-preview");
	}

	@Test
	void localPresetNeedsNoKey() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("Hi"));
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=vllm",
					"agent.providers.local.base-url=" + this.server.url("/v1"),
					"agent.providers.local.model=qwen3")
			.run((context) -> call(context.getBean(ChatModelRegistry.class).get("local")));
		RecordedRequest request = take();
		assertThat(request.getTarget()).isEqualTo("/v1/chat/completions");
		assertThat(request.getHeaders().get("Authorization")).isNull();
	}

	@Test
	void headersAndExtraBodyReachTheServer() throws Exception {
		this.server.enqueue(ChatModelAutoConfigurationTests.completion("Hi"));
		this.contextRunner
			.withPropertyValues("agent.providers.or.type=openrouter",
					"agent.providers.or.base-url=" + this.server.url("/"),
					"agent.providers.or.api-key=k", "agent.providers.or.model=openai/gpt-4o",
					"agent.providers.or.headers.X-Title=My App", "agent.providers.or.extra-body.thinking.type=enabled",
					"agent.providers.or.extra-body.top_k=5")
			.run((context) -> call(context.getBean(ChatModelRegistry.class).get("or")));
		RecordedRequest request = take();
		assertThat(request.getHeaders().get("X-Title")).isEqualTo("My App");
		JsonNode body = AgentJson.mapper().readTree(request.getBody().utf8());
		assertThat(body.path("thinking").path("type").asString()).isEqualTo("enabled");
		// a number in the properties is a number in the body, not the text "5"
		assertThat(body.path("top_k").isNumber()).isTrue();
		assertThat(body.path("top_k").asInt()).isEqualTo(5);
		assertThat(body.path("model").asString()).isEqualTo("openai/gpt-4o");
	}

	@Test
	void cloudPresetWithoutApiKeyFails() {
		this.contextRunner
			.withPropertyValues("agent.providers.ds.type=deepseek", "agent.providers.ds.model=deepseek-chat")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.providers.ds.api-key must be set for a provider of type 'deepseek'"));
	}

	@Test
	void azureWithoutBaseUrlFails() {
		this.contextRunner
			.withPropertyValues("agent.providers.az.type=azure-openai", "agent.providers.az.api-key=k",
					"agent.providers.az.model=dep")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.providers.az.base-url must be set"));
	}

	private static void call(ChatModel model) {
		model.call(ChatRequest.of(List.of(new UserMessage("Hello")))).block(Duration.ofSeconds(10));
	}

	private RecordedRequest take() throws InterruptedException {
		RecordedRequest request = this.server.takeRequest(5, TimeUnit.SECONDS);
		assertThat(request).isNotNull();
		return request;
	}

	private static OpenAiSettings settings(ChatModel model) {
		assertThat(model).isInstanceOf(RetryingChatModel.class);
		ChatModel delegate = ((RetryingChatModel) model).delegate();
		assertThat(delegate).isInstanceOf(OpenAiChatModel.class);
		return ((OpenAiChatModel) delegate).settings();
	}

}
