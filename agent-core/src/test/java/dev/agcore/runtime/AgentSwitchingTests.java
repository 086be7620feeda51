package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.SessionMemory;
import dev.agcore.memory.SessionMode;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several agents taking turns in one session: a shared conversation with a
 * {@code <system-reminder>} on the turn of a switch, or isolated conversations bridged by
 * the session's memory.
 */
class AgentSwitchingTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final InMemoryConversationStore conversations = new InMemoryConversationStore();

	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

	/** Plans; asked to "decide", it notes the decision in the session's memory first. */
	private final ScriptedChatModel planModel = ScriptedChatModel.answering((request) -> {
		Message last = request.messages().get(request.messages().size() - 1);
		if (last instanceof ToolResultMessage) {
			return text("decided");
		}
		return last.text().startsWith("decide") ? toolCalls(new ToolCall("d1", "decide", "{}")) : text("planned");
	});

	/** Builds; asked to "check", it calls a tool first. */
	private final ScriptedChatModel buildModel = ScriptedChatModel.answering((request) -> {
		Message last = request.messages().get(request.messages().size() - 1);
		if (last instanceof ToolResultMessage) {
			return text("checked");
		}
		return last.text().startsWith("check") ? toolCalls(new ToolCall("c1", "check", "{}")) : text("built");
	});

	private Agent plan(SessionMode mode) {
		return Agent.builder()
			.name("plan")
			.model(this.planModel)
			.systemPrompt("You plan.")
			.conversationStore(this.conversations)
			.store(this.store)
			.sessionMode(mode)
			.tool(TestTools.tool("decide", (arguments, context) -> {
				context.memory().put("design", "PostgreSQL");
				return "noted";
			}))
			.build();
	}

	private Agent build(SessionMode mode) {
		return Agent.builder()
			.name("build")
			.model(this.buildModel)
			.systemPrompt("You build.")
			.conversationStore(this.conversations)
			.store(this.store)
			.sessionMode(mode)
			.tool(TestTools.tool("check", (arguments, context) -> "fine"))
			.build();
	}

	@Test
	void theNextAgentSeesTheHistoryAndIsRemindedOnceOfTheSwitch() {
		Agent plan = plan(SessionMode.SHARED);
		Agent build = build(SessionMode.SHARED);
		plan.call("s", "sketch it");
		build.call("s", "make it");
		build.call("s", "again");

		assertThat(lastUserText(this.planModel.requests().get(0))).isEqualTo("sketch it");
		List<ChatRequest> builds = this.buildModel.requests();
		assertThat(builds.get(0).messages()).extracting(Message::text)
			.startsWith("You build.", "sketch it", "planned");
		assertThat(lastUserText(builds.get(0))).isEqualTo("make it\n\n" + AgentSwitch.reminder("plan", "build"))
			.contains("<system-reminder>Your operational mode has changed from plan to build.")
			.endsWith("</system-reminder>");
		assertThat(builds.get(1).messages()).extracting(Message::text)
			.containsExactly("You build.", "sketch it", "planned", "make it", "built", "again");

		// switching back reminds the other way round
		plan.call("s", "review it");
		assertThat(lastUserText(this.planModel.requests().get(1))).endsWith(AgentSwitch.reminder("build", "plan"));

		// the store keeps what the user wrote, and who answered
		List<Message> history = history("s");
		assertThat(history).filteredOn(UserMessage.class::isInstance)
			.extracting(Message::text)
			.containsExactly("sketch it", "make it", "again", "review it");
		assertThat(history).filteredOn(AssistantMessage.class::isInstance)
			.extracting((message) -> ((AssistantMessage) message).agent())
			.containsExactly("plan", "build", "build", "plan");
	}

	@Test
	void everyModelCallOfTheSwitchingTurnCarriesTheReminderButNotTheResultOrTheStore() {
		plan(SessionMode.SHARED).call("s", "sketch it");
		AgentResult result = build(SessionMode.SHARED).call("s", "check it");

		List<ChatRequest> builds = this.buildModel.requests();
		assertThat(builds).hasSize(2);
		String reminded = "check it\n\n" + AgentSwitch.reminder("plan", "build");
		assertThat(builds.get(0).messages().get(3).text()).isEqualTo(reminded);
		assertThat(builds.get(1).messages().get(3).text()).isEqualTo(reminded);
		assertThat(builds.get(1).messages()).extracting(Message::text).filteredOn((text) -> text.contains("<system"))
			.hasSize(1);
		assertThat(result.messages().get(0)).isEqualTo(new UserMessage("check it"));
		assertThat(result.messages()).filteredOn(AssistantMessage.class::isInstance)
			.extracting((message) -> ((AssistantMessage) message).agent())
			.containsExactly("build", "build");
	}

	@Test
	void aStreamedTurnIsRemindedAndRecordsItsAgentAsAnInvokedOne() {
		plan(SessionMode.SHARED).call("s", "sketch it");
		StepVerifier.create(build(SessionMode.SHARED).stream(AgentRequest.of("s", "make it")).then())
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(lastUserText(this.buildModel.requests().get(0))).endsWith(AgentSwitch.reminder("plan", "build"));
		assertThat(((AssistantMessage) history("s").get(3)).agent()).isEqualTo("build");
	}

	@Test
	void anAnswerStoredWithoutItsAgentIsNoSwitch() {
		// as stored by a release that did not record agents
		this.conversations.append("s", 0, List.of(new UserMessage("hi"), AssistantMessage.of("hello"))).block(TIMEOUT);
		build(SessionMode.SHARED).call("s", "make it");

		assertThat(lastUserText(this.buildModel.requests().get(0))).isEqualTo("make it");
	}

	@Test
	void isolatedAgentsKeepTheirOwnConversationsAndShareTheSessionMemory() {
		Agent plan = plan(SessionMode.ISOLATED);
		Agent build = build(SessionMode.ISOLATED);
		plan.call("s", "decide it");
		build.call("s", "make it");
		plan.call("s", "and now?");

		// build sees none of plan's turn, but the decision plan noted in the session's memory
		ChatRequest first = this.buildModel.requests().get(0);
		assertThat(first.messages()).hasSize(2);
		assertThat(first.messages().get(0).text()).isEqualTo("""
				You build.

				<session-context>
				design: PostgreSQL
				</session-context>""");
		assertThat(lastUserText(first)).isEqualTo("make it");
		// plan's own context goes on where it left off, without a reminder: nothing switched in it
		assertThat(this.planModel.requests().get(this.planModel.requests().size() - 1).messages())
			.extracting(Message::text)
			.containsExactly(first.messages().get(0).text().replace("You build.", "You plan."), "decide it", "",
					"noted", "decided", "and now?");

		assertThat(history("s")).isEmpty();
		assertThat(history("s#plan")).extracting(Message::text)
			.containsExactly("decide it", "", "noted", "decided", "and now?", "planned");
		assertThat(history("s#build")).extracting(Message::text).containsExactly("make it", "built");
		assertThat(plan.history("s").block(TIMEOUT)).isEqualTo(history("s#plan"));
		assertThat(SessionMemory.of(this.store, "s").get("design", String.class)).contains("PostgreSQL");
	}

	@Test
	void deletingASessionRemovesTheIsolatedConversationsOfTheAgentsNamed() {
		plan(SessionMode.ISOLATED).call("s", "decide it");
		build(SessionMode.SHARED).call("s", "make it");
		AgentSessions sessions = new AgentSessions(this.conversations, this.store, List.of("plan", "build"));

		StepVerifier.create(sessions.delete("s", null)).expectComplete().verify(TIMEOUT);

		assertThat(history("s")).isEmpty();
		assertThat(history("s#plan")).isEmpty();
		assertThat(SessionMemory.of(this.store, "s").get("design", String.class)).isEmpty();
	}

	@Test
	void anIsolatedIdTooLongForTheStoresIsHashed() {
		assertThat(SessionMode.isolatedId("s1", "plan")).isEqualTo("s1#plan");
		assertThat(SessionMode.SHARED.conversationId("s1", "plan")).isEqualTo("s1");
		String longSession = "x".repeat(AgentRequest.MAX_SESSION_ID_LENGTH);
		String id = SessionMode.ISOLATED.conversationId(longSession, "plan");
		assertThat(id).hasSize(64 + "#plan".length()).endsWith("#plan");
		assertThat(SessionMode.isolatedId(longSession, "p".repeat(250))).startsWith("isolated#").hasSize(9 + 64);
	}

	private List<Message> history(String conversationId) {
		Conversation conversation = this.conversations.load(conversationId).block(TIMEOUT);
		assertThat(conversation).isNotNull();
		return conversation.messages();
	}

	private static String lastUserText(ChatRequest request) {
		List<Message> messages = request.messages();
		for (int i = messages.size() - 1; i >= 0; i--) {
			if (messages.get(i) instanceof UserMessage user) {
				return user.text();
			}
		}
		throw new AssertionError("No user message in " + messages.stream().map(Message::text).toList());
	}

}
