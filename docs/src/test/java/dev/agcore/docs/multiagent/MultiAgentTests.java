package dev.agcore.docs.multiagent;

import java.time.Duration;
import java.util.List;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/multi-agent.md. */
class MultiAgentTests {

	private final ScriptedChatModel model = ScriptedChatModel.answering(MultiAgentTests::answer);

	@Test
	void theConfiguredLeadAsksTheResearcher() {
		SnippetContexts.yaml("multi-agent/sub-agents.yml", this.model)
			.withUserConfiguration(WebTools.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Agent lead = context.getBean(AgentRegistry.class).get("lead");
				assertThat(lead.tools()).extracting((spec) -> spec.name()).containsExactly("researcher");
				assertThat(lead.call("s1", "Who designed the Eiffel tower?").output())
					.isEqualTo("Koechlin and Nouguier, says the researcher.");
				assertThat(context.getBean(AgentRegistry.class).get("researcher").tools())
					.extracting((spec) -> spec.name())
					.containsExactly("web_search");
			});
	}

	@Test
	void theLeadBuiltInJavaAsksTheResearcher() {
		AgentResult result = SubAgents.ask(this.model, this.model, MethodTools.from(new WebTools()));
		assertThat(result.output()).isEqualTo("Koechlin and Nouguier, says the researcher.");
		assertThat(this.model.requests()).anyMatch((request) -> text(request).contains("You research."));
	}

	@Test
	void agentsSharingTheStoresShareTheSession() {
		InMemoryConversationStore conversations = new InMemoryConversationStore();
		InMemoryKeyValueStore store = new InMemoryKeyValueStore();
		Agent plan = Agent.builder().name("plan").model(this.model).conversationStore(conversations).store(store).build();
		Agent build = SharedSessions.build(this.model, conversations, store);
		plan.call("s1", "Plan a login page");
		build.call("s1", "Go ahead");
		List<Message> history = build.history("s1").block(Duration.ofSeconds(10));
		assertThat(history).filteredOn(AssistantMessage.class::isInstance)
			.extracting((message) -> ((AssistantMessage) message).agent())
			.containsExactly("plan", "build");
	}

	@Test
	void aSessionSwitchesBetweenTheConfiguredAgents() {
		SnippetContexts.yaml("multi-agent/session-modes.yml", this.model)
			.withUserConfiguration(LoginPage.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<Message> history = context.getBean(LoginPage.class).build();
				assertThat(history).filteredOn(AssistantMessage.class::isInstance)
					.extracting((message) -> ((AssistantMessage) message).agent())
					.containsExactly("plan", "build", "build");
				assertThat(context.getBean(AgentRegistry.class).get("reviewer").history("s1").block(Duration.ofSeconds(10)))
					.isEmpty();
			});
	}

	private static ChatResponse answer(ChatRequest request) {
		String text = text(request);
		if (text.contains("You research.")) {
			return ScriptedChatModel.text("Maurice Koechlin and Emile Nouguier.");
		}
		boolean asked = request.tools().stream().anyMatch((tool) -> tool.name().equals("researcher"));
		boolean answered = request.messages().stream().anyMatch(ToolResultMessage.class::isInstance);
		if (asked && !answered) {
			return ScriptedChatModel
				.toolCalls(new ToolCall("call_1", "researcher", "{\"task\":\"Who designed the Eiffel tower?\"}"));
		}
		return ScriptedChatModel.text(asked ? "Koechlin and Nouguier, says the researcher." : "Done.");
	}

	private static String text(ChatRequest request) {
		return request.messages().stream().map(Message::text).reduce("", (a, b) -> a + "\n" + b);
	}

}
