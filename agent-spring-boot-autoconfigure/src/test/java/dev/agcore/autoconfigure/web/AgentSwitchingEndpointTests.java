package dev.agcore.autoconfigure.web;

import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.agcore.autoconfigure.web.AgentRoutes.withClient;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching agents within one session over HTTP: the next turn posted to another agent
 * with the same session id, in shared and in isolated mode.
 */
class AgentSwitchingEndpointTests {

	/** Answers as the agent whose system prompt it is given. */
	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel
		.text(request.messages().get(0).text().startsWith("You plan.") ? "planned" : "built"));

	private final ReactiveWebApplicationContextRunner contextRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentSessionsAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class, MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentWebAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, () -> this.model)
		.withPropertyValues("agent.web.enabled=true", "agent.agents.plan.system-prompt=You plan.",
				"agent.agents.build.system-prompt=You build.");

	@Test
	void theNextTurnGoesToAnotherAgentWithTheHistoryAndAReminder() {
		this.contextRunner.run(withClient((client) -> {
			assertThat(invoke(client, "plan", "s1", "sketch it").get("output").asString()).isEqualTo("planned");
			assertThat(invoke(client, "build", "s1", "make it").get("output").asString()).isEqualTo("built");

			ChatRequest switched = this.model.requests().get(1);
			assertThat(switched.messages()).extracting(Message::text).startsWith("You build.", "sketch it", "planned");
			assertThat(lastUserText(switched)).startsWith("make it\n\n<system-reminder>Your operational mode has "
					+ "changed from plan to build.");

			// both agents show the one conversation, with who answered; the user's text as written
			for (String agent : List.of("plan", "build")) {
				JsonNode messages = get(client, "/agents/" + agent + "/sessions/s1/messages");
				assertThat(messages.valueStream().map((message) -> message.get("text").asString()))
					.containsExactly("sketch it", "planned", "make it", "built");
				assertThat(messages.get(1).get("agent").asString()).isEqualTo("plan");
				assertThat(messages.get(3).get("agent").asString()).isEqualTo("build");
				assertThat(messages.get(2).has("agent")).isFalse();
			}
		}));
	}

	@Test
	void anIsolatedAgentKeepsItsOwnConversationAndADeleteRemovesIt() {
		this.contextRunner.withPropertyValues("agent.agents.build.session-mode=isolated")
			.run(withClient((client) -> {
				invoke(client, "plan", "s1", "sketch it");
				invoke(client, "build", "s1", "make it");

				assertThat(this.model.requests().get(1).messages()).extracting(Message::text)
					.containsExactly("You build.", "make it");
				assertThat(get(client, "/agents/plan/sessions/s1/messages")).hasSize(2);
				JsonNode build = get(client, "/agents/build/sessions/s1/messages");
				assertThat(build.valueStream().map((message) -> message.get("text").asString()))
					.containsExactly("make it", "built");

				client.delete().uri("/agents/-/sessions/s1").exchange().expectStatus().isNoContent();

				assertThat(get(client, "/agents/plan/sessions/s1/messages")).isEmpty();
				assertThat(get(client, "/agents/build/sessions/s1/messages")).isEmpty();
			}));
	}

	@Test
	void anUnknownSessionModeFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.agents.build.session-mode=separate")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.agents.build.session-mode: unknown mode 'separate'"));
	}

	private static JsonNode invoke(WebTestClient client, String agent, String sessionId, String message) {
		return json(client.post()
			.uri("/agents/" + agent + "/invoke")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", sessionId, "message", message))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static JsonNode get(WebTestClient client, String uri) {
		return json(client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	private static String lastUserText(ChatRequest request) {
		List<Message> messages = request.messages();
		return messages.stream()
			.filter(UserMessage.class::isInstance)
			.reduce((first, second) -> second)
			.map(Message::text)
			.orElseThrow();
	}

}
