package dev.agcore.autoconfigure.web.a2a;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.NpmCommands;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareTestTools;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.model.ChatModel;
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
 * The A2A server of a running WebFlux application, driven by the official
 * {@code @a2a-js/sdk} client ({@code src/test/resources/a2a-client/client.mjs}): it reads
 * the Agent Card, sends a message, streams one, gets a task, approves a paused tool call
 * with a follow-up message on the task, and cancels a paused task.
 */
class A2aClientTests {

	@Test
	void officialClientReadsTheCardSendsStreamsGetsApprovesAndCancels() throws URISyntaxException {
		Path packages = NpmCommands.directory();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ClientTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "agent.web.a2a.enabled=true", "agent.agents.assistant.model=scripted",
					"agent.agents.assistant.tools=get_weather,delete_file",
					"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone",
					"agent.untrusted-content.enabled=false")
			.run()) {
			String endpoint = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port")
					+ "/a2a/assistant";
			URL script = A2aClientTests.class.getResource("/a2a-client/client.mjs");
			assertThat(script).isNotNull();
			NpmCommands.Result result = NpmCommands.run(
					List.of("node", Path.of(script.toURI()).toString(), endpoint + "/.well-known/agent-card.json",
							packages.toString()),
					Path.of(script.toURI()).getParent(), Duration.ofSeconds(60));
			assertThat(result.exitCode()).as(result.stderr()).isZero();
			JsonNode results = AgentJson.mapper().readTree(result.stdout());

			JsonNode card = results.path("card");
			assertThat(card.path("name").asString()).isEqualTo("assistant");
			assertThat(card.path("url").asString()).isEqualTo(endpoint);
			assertThat(card.path("streaming").asBoolean()).isTrue();
			assertThat(card.path("skills").values()).extracting(JsonNode::asString)
				.containsExactlyInAnyOrder("get_weather", "delete_file");

			JsonNode send = results.path("send");
			assertThat(send.path("kind").asString()).isEqualTo("task");
			assertThat(send.path("state").asString()).isEqualTo("completed");
			assertThat(send.path("text").asString()).isEqualTo("Done: Sunny in Lima");

			JsonNode stream = results.path("stream");
			assertThat(stream.path("kinds").values()).extracting(JsonNode::asString)
				.startsWith("task")
				.contains("artifact-update")
				.endsWith("status-update");
			assertThat(stream.path("text").asString()).isEqualTo("Done: Sunny in Quito");
			assertThat(stream.path("state").asString()).isEqualTo("completed");
			assertThat(stream.path("final").asBoolean()).isTrue();

			JsonNode get = results.path("get");
			assertThat(get.path("state").asString()).isEqualTo("completed");
			assertThat(get.path("roles").values()).extracting(JsonNode::asString).containsExactly("user", "agent");

			JsonNode approval = results.path("approval");
			assertThat(approval.path("pausedState").asString()).isEqualTo("input-required");
			assertThat(approval.path("pendingTool").asString()).isEqualTo("delete_file");
			assertThat(approval.path("sameTask").asBoolean()).isTrue();
			assertThat(approval.path("state").asString()).isEqualTo("completed");
			assertThat(approval.path("text").asString()).isEqualTo("Done: Deleted /tmp/a");
			assertThat(context.getBean(MiddlewareTestTools.class).calls())
				.containsExactly("get_weather:Lima", "get_weather:Quito", "delete_file:/tmp/a");

			JsonNode cancel = results.path("cancel");
			assertThat(cancel.path("state").asString()).isEqualTo("canceled");
			assertThat(cancel.path("againCode").asInt()).isEqualTo(-32002);
			assertThat(cancel.path("missingCode").asInt()).isEqualTo(-32001);
		}
	}

	/**
	 * A WebFlux application with the A2A server, whose scripted model calls the tool the
	 * message asks for (deleting needs approval) and reports its result.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
			MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class, A2aServerAutoConfiguration.class })
	static class ClientTestApplication {

		@Bean
		ChatModel scripted() {
			return A2aTestModels.scripted();
		}

		@Bean
		MiddlewareTestTools tools() {
			return new MiddlewareTestTools();
		}

	}

}
