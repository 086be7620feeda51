package dev.agcore.autoconfigure.web;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a configured provider that cannot be reached is named by address in the
 * server log, and only there: never in a response or a stream's error event.
 */
@ExtendWith(OutputCaptureExtension.class)
class AgentWebUnreachableProviderTests {

	private static final String UNREACHABLE = "The connection to the model provider 'openai' failed";

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
		.withPropertyValues("agent.web.enabled=true", "agent.retry.max-attempts=1");

	@Test
	void refusedConnectionIsLoggedWithItsAddressAndAnsweredWithout(CapturedOutput output) throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		String address = "127.0.0.1:" + port;
		this.contextRunner
			.withPropertyValues("agent.providers.openai.base-url=http://" + address + "/v1",
					"agent.providers.openai.model=gpt-4o-mini")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
				WebTestClient client = WebTestClient.bindToRouterFunction(router).build();
				String body = client.post()
					.uri("/agents/assistant/invoke")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s1", "message", "Hi"))
					.exchange()
					.expectStatus()
					.isEqualTo(HttpStatus.BAD_GATEWAY)
					.expectBody(String.class)
					.returnResult()
					.getResponseBody();
				assertThat(body).doesNotContain("127.0.0.1").doesNotContain(String.valueOf(port));
				assertThat(AgentJson.mapper().readTree(body).get("message").asString()).isEqualTo(UNREACHABLE);
				List<ServerSentEvent<String>> events = client.post()
					.uri("/agents/assistant/stream")
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("sessionId", "s2", "message", "Hi"))
					.exchange()
					.expectStatus()
					.isOk()
					.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
					})
					.getResponseBody()
					.collectList()
					.block(Duration.ofSeconds(10));
				assertThat(events).singleElement().satisfies((event) -> {
					assertThat(event.event()).isEqualTo("error");
					assertThat(event.data()).doesNotContain("127.0.0.1").doesNotContain(String.valueOf(port));
					assertThat(AgentJson.mapper().readTree(event.data()).get("message").asString())
						.isEqualTo(UNREACHABLE);
				});
				assertThat(output.getOut().lines().filter((line) -> line.contains("WARN") && line.contains(address)))
					.as("WARN lines naming %s", address)
					.hasSize(2);
			});
	}

}
