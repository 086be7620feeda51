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
import dev.agcore.provider.gemini.GeminiChatModel;
import dev.agcore.provider.gemini.GeminiSettings;
import dev.agcore.resilience.RetryingChatModel;
import mockwebserver3.MockResponse;
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
 * Tests for {@link GeminiProviderFactory} through {@link ChatModelAutoConfiguration}.
 */
class GeminiProviderFactoryTests {

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
	void geminiProviderDefaultsToGooglesApiRoot() {
		this.contextRunner
			.withPropertyValues("agent.providers.gemini.api-key=gm-test", "agent.providers.gemini.model=gemini-2.5-flash",
					"agent.providers.gemini.response-timeout=20s", "agent.providers.gemini.options.temperature=0.4",
					"agent.providers.gemini.options.thinking-budget=512")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("gemini");
				assertThat(model).isInstanceOf(RetryingChatModel.class);
				ChatModel delegate = ((RetryingChatModel) model).delegate();
				assertThat(delegate).isInstanceOf(GeminiChatModel.class);
				GeminiSettings settings = ((GeminiChatModel) delegate).settings();
				assertThat(settings.providerName()).isEqualTo("gemini");
				assertThat(settings.baseUrl()).isEqualTo("https://generativelanguage.googleapis.com/v1beta");
				assertThat(settings.apiKey()).isEqualTo("gm-test");
				assertThat(settings.model()).isEqualTo("gemini-2.5-flash");
				assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(20));
				assertThat(settings.defaultOptions().temperature()).isEqualTo(0.4);
				assertThat(settings.defaultOptions().thinkingBudget()).isEqualTo(512);
			});
	}

	@Test
	void googleTypeSendsKeyHeadersExtraBodyAndOptions() throws Exception {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body("{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"Hi\"}]}, "
					+ "\"finishReason\": \"STOP\"}], \"modelVersion\": \"gemini-2.0-flash\"}")
			.build());
		this.contextRunner
			.withPropertyValues("agent.providers.vertex.type=google",
					"agent.providers.vertex.base-url=" + this.server.url("/v1beta/"),
					"agent.providers.vertex.api-key=gm-test", "agent.providers.vertex.model=gemini-2.0-flash",
					"agent.providers.vertex.headers.x-goog-user-project=my-project",
					"agent.providers.vertex.extra-body.generationConfig.topK=40",
					"agent.providers.vertex.extra-body.safetySettings[0].category=HARM_CATEGORY_HARASSMENT",
					"agent.providers.vertex.extra-body.safetySettings[0].threshold=BLOCK_ONLY_HIGH",
					"agent.providers.vertex.extra-body.safetySettings[1].category=HARM_CATEGORY_HATE_SPEECH",
					"agent.providers.vertex.extra-body.safetySettings[1].threshold=BLOCK_NONE",
					"agent.providers.vertex.options.max-tokens=64")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("vertex");
				assertThat(model.providerName()).isEqualTo("vertex");
				assertThat(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))).block(Duration.ofSeconds(10))
					.message()
					.text()).isEqualTo("Hi");
				RecordedRequest recorded = this.server.takeRequest(5, TimeUnit.SECONDS);
				assertThat(recorded.getTarget()).isEqualTo("/v1beta/models/gemini-2.0-flash:generateContent");
				assertThat(recorded.getHeaders().get("x-goog-api-key")).isEqualTo("gm-test");
				assertThat(recorded.getHeaders().get("x-goog-user-project")).isEqualTo("my-project");
				JsonNode body = AgentJson.mapper().readTree(recorded.getBody().utf8());
				assertThat(body.get("generationConfig"))
					.isEqualTo(AgentJson.mapper().readTree("{\"maxOutputTokens\": 64, \"topK\": 40}"));
				// a list in the properties is a list in the body, not an object keyed 0, 1
				assertThat(body.get("safetySettings")).isEqualTo(AgentJson.mapper()
					.readTree("[{\"category\": \"HARM_CATEGORY_HARASSMENT\", \"threshold\": \"BLOCK_ONLY_HIGH\"}, "
							+ "{\"category\": \"HARM_CATEGORY_HATE_SPEECH\", \"threshold\": \"BLOCK_NONE\"}]"));
			});
	}

	@Test
	void missingApiKeyFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.providers.gemini.model=gemini-2.5-flash")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.providers.gemini.api-key"));
	}

}
