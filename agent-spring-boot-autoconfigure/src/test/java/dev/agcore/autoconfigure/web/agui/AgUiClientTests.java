package dev.agcore.autoconfigure.web.agui;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.NpmCommands;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
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
 * The AG-UI route of a running WebFlux application, driven by the official
 * {@code @ag-ui/client} {@code HttpAgent} ({@code src/test/resources/ag-ui-client/client.mjs}):
 * a run whose agent calls a tool and answers reaches the client as text and tool events in
 * order, which the client (verifying the sequence as it does) assembles into messages; a
 * second run on the same thread continues the stored conversation; an unknown agent is an
 * HTTP error.
 */
class AgUiClientTests {

	@Test
	void officialClientRunsAnAgentTwiceOnOneThread() throws URISyntaxException {
		Path packages = NpmCommands.directory();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ClientTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "agent.web.ag-ui.enabled=true", "agent.web.base-path=/agents",
					"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=get_weather",
					"agent.untrusted-content.enabled=false")
			.run()) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port")
					+ "/agents";
			URL script = AgUiClientTests.class.getResource("/ag-ui-client/client.mjs");
			assertThat(script).isNotNull();
			NpmCommands.Result result = NpmCommands.run(
					List.of("node", Path.of(script.toURI()).toString(), base + "/assistant/ag-ui",
							base + "/no-such-agent/ag-ui", packages.toString()),
					Path.of(script.toURI()).getParent(), Duration.ofSeconds(60));
			assertThat(result.exitCode()).as(result.stderr()).isZero();
			JsonNode results = AgentJson.mapper().readTree(result.stdout());

			JsonNode first = results.path("first");
			// the text arrives in several pieces
			assertThat(collapsed(first.path("events"))).containsExactly("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
						"TOOL_CALL_RESULT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
						"RUN_FINISHED");
			JsonNode newMessages = first.path("newMessages");
			assertThat(newMessages.values()).extracting((message) -> message.path("role").asString())
				.containsExactly("assistant", "tool", "assistant");
			JsonNode call = newMessages.get(0).path("toolCalls").get(0);
			assertThat(call.path("name").asString()).isEqualTo("get_weather");
			assertThat(AgentJson.mapper().readTree(call.path("arguments").asString()).path("city").asString())
				.isEqualTo("Lima");
			assertThat(newMessages.get(1).path("toolCallId").asString()).isEqualTo(call.path("id").asString());
			assertThat(newMessages.get(1).path("content").asString()).isEqualTo("Sunny, 21 C in Lima");
			assertThat(newMessages.get(2).path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Lima");

			JsonNode second = results.path("second");
			assertThat(second.path("events").get(0).asString()).isEqualTo("RUN_STARTED");
			assertThat(second.path("events").get(second.path("events").size() - 1).asString())
				.isEqualTo("RUN_FINISHED");
			JsonNode messages = results.path("messages");
			assertThat(messages.values()).extracting((message) -> message.path("role").asString())
				.containsExactly("user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant");
			assertThat(messages.get(7).path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Quito");

			// the second turn continued the stored conversation: its message alone, after the first turn
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			ChatRequest secondTurn = model.requests().get(2);
			List<String> texts = secondTurn.messages()
				.stream()
				.filter(UserMessage.class::isInstance)
				.map(Message::text)
				.toList();
			assertThat(texts).containsExactly("What is the weather in Lima?", "And in Quito?");

			JsonNode error = results.path("error");
			assertThat(error.path("thrown").asBoolean()).as(error.toString()).isTrue();
			assertThat(error.path("status").asInt()).isEqualTo(404);
			assertThat(error.path("payload").path("error").asString()).isEqualTo("not_found");
		}
	}

	// the event types, each run of one type as one
	static List<String> collapsed(JsonNode types) {
		List<String> collapsed = new ArrayList<>();
		for (JsonNode type : types.values()) {
			if (collapsed.isEmpty() || !collapsed.get(collapsed.size() - 1).equals(type.asString())) {
				collapsed.add(type.asString());
			}
		}
		return collapsed;
	}

	/**
	 * A WebFlux application with the AG-UI route, whose scripted model looks up the weather
	 * of the city the user names and answers with it.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
			AgentSessionsAutoConfiguration.class, AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class,
			AgUiAutoConfiguration.class })
	static class ClientTestApplication {

		@Bean
		ScriptedChatModel scripted() {
			return ScriptedChatModel.answering((request) -> {
				List<Message> messages = request.messages();
				Message last = messages.get(messages.size() - 1);
				if (last instanceof ToolResultMessage result) {
					return ScriptedChatModel.text("The weather: " + result.text());
				}
				String city = (last instanceof UserMessage user && user.text().contains("Quito")) ? "Quito" : "Lima";
				return ScriptedChatModel.toolCalls(
						new ToolCall("call-" + UUID.randomUUID(), "get_weather", "{\"city\": \"" + city + "\"}"));
			});
		}

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

}
