package dev.agcore.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.memory.AgentSessions;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.memory.SessionDirectory;
import dev.agcore.memory.LongTermStore;
import dev.agcore.memory.SessionInfo;
import dev.agcore.memory.SessionMemory;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Session memory in the system prompt, user ids seen by tools and middleware, and the
 * sessions of a user.
 */
class AgentSessionContextTests {

	private final InMemoryConversationStore conversations = new InMemoryConversationStore();

	/** Each write a second after the one before: "newest first" does not depend on the clock's resolution. */
	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(1_000, Duration.ZERO, new TickingClock());

	/** Calls the 'note' tool when asked to note something, else answers. */
	private final ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
		Message last = request.messages().get(request.messages().size() - 1);
		if (last instanceof ToolResultMessage result) {
			return text(result.text());
		}
		return last.text().startsWith("note") ? toolCalls(new ToolCall("c", "note", "{}")) : text("ok");
	});

	private Agent agent(boolean sessionContext) {
		return Agent.builder()
			.name("notes")
			.model(this.model)
			.systemPrompt("You help.")
			.conversationStore(this.conversations)
			.store(this.store)
			.sessionContext(sessionContext)
			.tool(TestTools.tool("note", (arguments, context) -> {
				context.memory().put("design", "PostgreSQL");
				context.memory().put("budget", Map.of("eur", 300));
				return "noted for " + context.userId();
			}))
			.build();
	}

	@Test
	void sessionMemoryWrittenByAToolIsInTheSystemPromptOfTheNextTurnOfThatSessionOnly() {
		Agent agent = agent(true);
		AgentResult first = agent.call("s1", "note this");
		assertThat(systemPrompt(this.model.requests().get(0))).isEqualTo("You help.");
		assertThat(first.output()).isEqualTo("noted for null");

		agent.call("s1", "what did we choose?");
		agent.call("s2", "what did we choose?");

		List<ChatRequest> requests = this.model.requests();
		assertThat(systemPrompt(requests.get(requests.size() - 2))).isEqualTo("""
				You help.

				<session-context>
				design: PostgreSQL
				budget: {"eur":300}
				</session-context>""");
		assertThat(systemPrompt(requests.get(requests.size() - 1))).isEqualTo("You help.");
	}

	@Test
	void clearedSessionMemoryLeavesTheSystemPromptAlone() {
		Agent agent = agent(true);
		agent.call("s1", "note this");
		SessionMemory memory = SessionMemory.of(this.store, "s1");
		assertThat(memory.snapshot()).startsWith("<session-context>\ndesign: PostgreSQL\n");

		assertThat(memory.clear()).isEqualTo(2);
		agent.call("s1", "anything?");

		assertThat(memory.snapshot()).isEmpty();
		assertThat(systemPrompt(this.model.requests().get(this.model.requests().size() - 1))).isEqualTo("You help.");
	}

	@Test
	void agentCanLeaveSessionMemoryOutOfThePrompt() {
		Agent agent = agent(false);
		agent.call("s1", "note this");
		agent.call("s1", "anything?");

		assertThat(systemPrompt(this.model.requests().get(this.model.requests().size() - 1))).isEqualTo("You help.");
	}

	@Test
	void toolsSeeTheUserIdAndTheSessionIsListedForTheUser() {
		Agent agent = agent(true);
		AgentResult result = agent.call(AgentRequest.of("s1", "note this").withUserId("alice"));
		agent.call(AgentRequest.of("s2", "hello").withUserId("alice"));
		agent.call(AgentRequest.of("s3", "hello").withUserId("bob"));
		agent.call("s4", "hello");

		assertThat(result.output()).isEqualTo("noted for alice");
		AgentSessions sessions = new AgentSessions(this.conversations, this.store);
		List<SessionInfo> alice = sessions.list("alice", 0, 10).block(Duration.ofSeconds(5));
		assertThat(alice).extracting(SessionInfo::sessionId).containsExactly("s2", "s1");
		assertThat(alice).extracting(SessionInfo::agentName).containsOnly("notes");
		assertThat(sessions.list("alice", 1, 10).block(Duration.ofSeconds(5))).extracting(SessionInfo::sessionId)
			.containsExactly("s1");
		assertThat(sessions.list("bob", 0, 10).block(Duration.ofSeconds(5))).extracting(SessionInfo::sessionId)
			.containsExactly("s3");
	}

	@Test
	void aSessionPausedForApprovalIsListedForItsUser() {
		Agent agent = Agent.builder()
			.name("notes")
			.model(this.model)
			.conversationStore(this.conversations)
			.store(this.store)
			.middleware(HumanInTheLoopMiddleware.forTools(Set.of("note")))
			.tool(TestTools.tool("note", (arguments, context) -> "noted"))
			.build();

		AgentResult paused = agent.call(AgentRequest.of("s1", "note this").withUserId("alice"));

		assertThat(paused.status()).isEqualTo(AgentResult.Status.INTERRUPTED);
		assertThat(new AgentSessions(this.conversations, this.store).list("alice", 0, 10).block(Duration.ofSeconds(5)))
			.extracting(SessionInfo::sessionId)
			.containsExactly("s1");
	}

	@Test
	void deletingASessionForgetsItsConversationMemoryAndListing() {
		Agent agent = agent(true);
		agent.call(AgentRequest.of("s1", "note this").withUserId("alice"));
		agent.call(AgentRequest.of("s2", "hello").withUserId("alice"));
		AgentSessions sessions = new AgentSessions(this.conversations, this.store);
		LongTermStore.of(this.store).put("session:s1", "k", "session-scoped");
		LongTermStore.of(this.store).put("user:alice", "k", "user-scoped");

		sessions.delete("s1", "alice").block(Duration.ofSeconds(5));

		assertThat(agent.history("s1").block(Duration.ofSeconds(5))).isEmpty();
		assertThat(agent.history("s2").block(Duration.ofSeconds(5))).isNotEmpty();
		assertThat(SessionMemory.of(this.store, "s1").keys()).isEmpty();
		assertThat(LongTermStore.of(this.store).keys("session:s1")).isEmpty();
		assertThat(LongTermStore.of(this.store).keys("user:alice")).containsExactly("k");
		assertThat(sessions.list("alice", 0, 10).block(Duration.ofSeconds(5))).extracting(SessionInfo::sessionId)
			.containsExactly("s2");
		// deleting again changes nothing
		sessions.delete("s1", "alice").block(Duration.ofSeconds(5));
	}

	@Test
	void resumeRequestsCarryAUserIdWithTheSameRules() {
		assertThat(ResumeRequest.of("s1", Map.of()).withUserId("alice").userId()).isEqualTo("alice");
		assertThat(ResumeRequest.of("s1", Map.of()).userId()).isNull();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ResumeRequest.of("s1", Map.of()).withUserId(" "))
			.withMessage("'userId' must not be blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> AgentRequest.of("s1", "hi").withUserId("u".repeat(257)))
			.withMessageContaining("'userId' must be at most 256");
	}

	@Test
	void aKeyValueStoreThatIsDownFailsTheTurnAndNothingIsStored() {
		MemoryUnavailableException down = new MemoryUnavailableException("Redis is down", new IllegalStateException());
		KeyValueStore listDown = failing(this.store, "list", null, down);
		Agent agent = Agent.builder().name("notes").model(this.model).conversationStore(this.conversations)
			.store(listDown).build();

		assertThatExceptionOfType(MemoryUnavailableException.class)
			.isThrownBy(() -> agent.call(AgentRequest.of("s1", "hello").withUserId("alice")));
		assertThat(this.conversations.load("s1").block(Duration.ofSeconds(5)).messages()).isEmpty();
		assertThat(this.model.requests()).isEmpty();
	}

	@Test
	void aSessionDirectoryThatCannotBeWrittenFailsTheTurnBeforeItIsStored() {
		MemoryUnavailableException down = new MemoryUnavailableException("Redis is down", new IllegalStateException());
		KeyValueStore directoryDown = failing(this.store, "put", SessionDirectory.NAMESPACE_PREFIX, down);
		Agent agent = Agent.builder().name("notes").model(this.model).conversationStore(this.conversations)
			.store(directoryDown).build();

		assertThatExceptionOfType(MemoryUnavailableException.class)
			.isThrownBy(() -> agent.call(AgentRequest.of("s1", "hello").withUserId("alice")));
		assertThat(this.conversations.load("s1").block(Duration.ofSeconds(5)).messages()).isEmpty();
		assertThat(agent.call("s1", "hello").output()).as("without a user id nothing is listed").isEqualTo("ok");
	}

	/** A store whose method of a name fails, for namespaces starting with a prefix if given. */
	private static KeyValueStore failing(KeyValueStore delegate, String method, String namespacePrefix,
			RuntimeException failure) {
		return (KeyValueStore) Proxy.newProxyInstance(AgentSessionContextTests.class.getClassLoader(),
				new Class<?>[] { KeyValueStore.class }, (proxy, called, arguments) -> {
					if (called.getName().equals(method)
							&& (namespacePrefix == null || ((String) arguments[0]).startsWith(namespacePrefix))) {
						return Mono.error(failure);
					}
					try {
						return called.invoke(delegate, arguments);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

	private static String systemPrompt(ChatRequest request) {
		return (request.messages().get(0) instanceof SystemMessage system) ? system.text() : "";
	}

	private static final class TickingClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		@Override
		public synchronized Instant instant() {
			this.now = this.now.plusSeconds(1);
			return this.now;
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

}
