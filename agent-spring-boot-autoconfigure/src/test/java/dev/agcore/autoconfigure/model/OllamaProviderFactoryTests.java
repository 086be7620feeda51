package dev.agcore.autoconfigure.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.json.AgentJson;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatRequest;
import dev.agcore.provider.ollama.OllamaChatModel;
import dev.agcore.provider.ollama.OllamaChatSettings;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.resilience.RetryingChatModel;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OllamaProviderFactory} through {@link ChatModelAutoConfiguration}.
 */
class OllamaProviderFactoryTests {

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
	void ollamaTypeBecomesNativeModelOnLocalhostByDefault() {
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=ollama", "agent.providers.local.model=qwen3:8b",
					"agent.providers.local.keep-alive=10m", "agent.providers.local.options.temperature=0.2",
					"agent.providers.local.options.thinking-budget=0", "agent.providers.local.headers.X-Team=agents",
					"agent.providers.local.extra-body.options.num_ctx=8192",
					"agent.providers.local.response-timeout=120s")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("local");
				assertThat(model).isInstanceOf(RetryingChatModel.class);
				ChatModel delegate = ((RetryingChatModel) model).delegate();
				assertThat(delegate).isInstanceOf(OllamaChatModel.class);
				OllamaChatSettings settings = ((OllamaChatModel) delegate).settings();
				assertThat(settings.providerName()).isEqualTo("local");
				assertThat(settings.baseUrl()).isEqualTo("http://localhost:11434");
				assertThat(settings.model()).isEqualTo("qwen3:8b");
				assertThat(settings.apiKey()).isNull();
				assertThat(settings.keepAlive()).isEqualTo("10m");
				assertThat(settings.defaultOptions().temperature()).isEqualTo(0.2);
				assertThat(settings.defaultOptions().thinkingBudget()).isZero();
				assertThat(settings.headers()).containsEntry("X-Team", "agents");
				assertThat(settings.extraBody()).containsKey("options");
				assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(120));
			});
	}

	@Test
	void providerNamedOllamaNeedsNoType() {
		this.contextRunner.withPropertyValues("agent.providers.ollama.model=llama3.2")
			.run((context) -> assertThat(
					((RetryingChatModel) context.getBean(ChatModelRegistry.class).get("ollama")).delegate())
				.isInstanceOf(OllamaChatModel.class));
	}

	@Test
	void configuredModelCallsApiChatWithPropertiesApplied() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
					+ "\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":1}")
			.build());
		String baseUrl = this.server.url("/").toString();
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=ollama", "agent.providers.local.base-url=" + baseUrl,
					"agent.providers.local.model=llama3.2", "agent.providers.local.api-key=cloud-key",
					"agent.providers.local.keep-alive=-1", "agent.providers.local.options.max-tokens=64",
					"agent.providers.local.extra-body.options.num_ctx=8192")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("local");
				StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
					.assertNext((response) -> assertThat(response.message().text()).isEqualTo("Hi"))
					.expectComplete()
					.verify(Duration.ofSeconds(10));
				RecordedRequest request = this.server.takeRequest(5, TimeUnit.SECONDS);
				assertThat(request.getTarget()).isEqualTo("/api/chat");
				assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer cloud-key");
				JsonNode body = AgentJson.mapper().readTree(request.getBody().utf8());
				assertThat(body.get("keep_alive").asLong()).isEqualTo(-1);
				assertThat(body.get("options").get("num_predict").asInt()).isEqualTo(64);
				// from properties a map's values are text, where Ollama reads only numbers
				assertThat(body.get("options").get("num_ctx").isNumber()).isTrue();
				assertThat(body.get("options").get("num_ctx").asInt()).isEqualTo(8192);
			});
	}

	@Test
	void extraBodyTextIsTypedAsOllamaExpects() {
		Map<String, Object> typed = ExtraBody.typed(Map.of("options",
				Map.of("num_ctx", "8192", "min_p", "0.05", "use_mmap", "false", "stop_word", "end"), "raw", "true",
				"images", List.of("1", "x")));
		assertThat(typed).isEqualTo(Map.of("options",
				Map.of("num_ctx", 8192L, "min_p", 0.05, "use_mmap", false, "stop_word", "end"), "raw", true, "images",
				List.of(1L, "x")));
	}

	@Test
	void ollamaTypeWithOpenAiCompatibleUrlFailsNamingBothWays() {
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=ollama",
					"agent.providers.local.base-url=http://localhost:11434/v1", "agent.providers.local.model=llama3.2")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.providers.local.base-url ends with /v1")
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("http://localhost:11434,")
					.contains("type 'openai'")));
	}

	@Test
	void openAiTypeWithOllamasV1UrlStaysOpenAiCompatible() {
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=openai",
					"agent.providers.local.base-url=http://localhost:11434/v1", "agent.providers.local.model=llama3.2")
			.run((context) -> assertThat(
					((RetryingChatModel) context.getBean(ChatModelRegistry.class).get("local")).delegate())
				.isInstanceOf(OpenAiChatModel.class));
	}

	@Test
	void settingsOfAnOllamaProviderDoNotShowItsKey() {
		this.contextRunner
			.withPropertyValues("agent.providers.ollama.model=llama3.2", "agent.providers.ollama.api-key=secret-key")
			.run((context) -> {
				OllamaChatModel model = (OllamaChatModel) ((RetryingChatModel) context.getBean(ChatModelRegistry.class)
					.get("ollama")).delegate();
				assertThat(model.settings().toString()).doesNotContain("secret-key");
				assertThat(model.settings().headers()).isEqualTo(Map.of());
			});
	}

}
