package dev.agcore.autoconfigure.web.openai;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.NpmCommands;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAI-compatible endpoint of a running WebFlux application, driven by the
 * official {@code openai} npm client ({@code src/test/resources/openai-client/client.mjs}):
 * it lists the models, runs a turn whose agent calls a tool, assembles a streamed turn
 * with its own stream helper and gets a 404 for an unknown model.
 */
class OpenAiClientTests {

	@Test
	void officialClientListsModelsRunsAndStreamsTurnsAndSeesErrors() throws URISyntaxException {
		Path packages = NpmCommands.directory();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ClientTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "agent.web.openai.enabled=true", "agent.agents.assistant.model=scripted",
					"agent.agents.assistant.tools=get_weather", "agent.agents.helper.model=scripted",
					"agent.untrusted-content.enabled=false")
			.run()) {
			String baseUrl = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port")
					+ "/v1";
			URL script = OpenAiClientTests.class.getResource("/openai-client/client.mjs");
			assertThat(script).isNotNull();
			NpmCommands.Result result = NpmCommands.run(
					List.of("node", Path.of(script.toURI()).toString(), baseUrl, packages.toString()),
					Path.of(script.toURI()).getParent(), Duration.ofSeconds(60));
			assertThat(result.exitCode()).as(result.stderr()).isZero();
			JsonNode results = AgentJson.mapper().readTree(result.stdout());

			// in the order the agents are configured, which these properties leave open
			assertThat(results.path("models").values()).extracting(JsonNode::asString)
				.containsExactlyInAnyOrder("assistant", "helper");
			JsonNode completion = results.path("completion");
			assertThat(completion.path("id").asString()).startsWith("chatcmpl-");
			assertThat(completion.path("object").asString()).isEqualTo("chat.completion");
			assertThat(completion.path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Lima");
			assertThat(completion.path("finishReason").asString()).isEqualTo("stop");
			assertThat(completion.path("totalTokens").isNumber()).isTrue();
			JsonNode stream = results.path("stream");
			assertThat(stream.path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Quito");
			assertThat(stream.path("role").asString()).isEqualTo("assistant");
			assertThat(stream.path("finishReason").asString()).isEqualTo("stop");
			assertThat(stream.path("totalTokens").isNumber()).isTrue();
			assertThat(stream.path("deltas").asInt()).isPositive();
			JsonNode error = results.path("error");
			assertThat(error.path("thrown").asBoolean()).isTrue();
			assertThat(error.path("notFound").asBoolean()).isTrue();
			assertThat(error.path("status").asInt()).isEqualTo(404);
			assertThat(error.path("code").asString()).isEqualTo("model_not_found");
			assertThat(error.path("param").asString()).isEqualTo("model");
			assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		}
	}

	/**
	 * A WebFlux application with the OpenAI-compatible routes, whose scripted model looks
	 * up the weather of the city the user names and answers with it.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
			AgentSessionsAutoConfiguration.class, AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class,
			OpenAiAutoConfiguration.class })
	static class ClientTestApplication {

		@Bean
		ChatModel scripted() {
			return WeatherTools.callingModel().withoutRecording();
		}

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

}
