package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.AgentPrincipal;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionOwners;
import dev.agcore.message.Message;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's one check of who may use a session ({@link TurnAccess}, {@link SessionAccess}):
 * principals, anonymous callers, foreign and unowned sessions, and {@code withUserId}
 * next to a principal, on turns, streams, resumptions and reads.
 */
class AgentSessionAccessTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final AgentPrincipal ALICE = AgentPrincipal.of("alice", "ROLE_USER");

	private static final AgentPrincipal BOB = AgentPrincipal.of("bob", "ROLE_USER");

	private final ScriptedChatModel model = ScriptedChatModel
		.answering((request) -> ScriptedChatModel.text("ok"));

	private final KeyValueStore store = new InMemoryKeyValueStore();

	private final List<AuditEvent> audited = new ArrayList<>();

	private Agent agent(CallerResolver callers) {
		return Agent.builder()
			.name("helper")
			.model(this.model)
			.conversationStore(new InMemoryConversationStore())
			.store(this.store)
			.auditor(Auditor.of(this.audited::add))
			.callers(callers)
			.build();
	}

	private Agent agent() {
		return agent(CallerResolver.NONE);
	}

	@Test
	void aPrincipalClaimsANewSessionAndContinuesIt() {
		Agent agent = agent();
		AgentResult first = agent.invoke(AgentRequest.of("s1", "hello")).contextWrite(AgentPrincipal.context(ALICE))
			.block(TIMEOUT);
		agent.invoke(AgentRequest.of("s1", "again")).contextWrite(AgentPrincipal.context(ALICE)).block(TIMEOUT);

		assertThat(first.isCompleted()).isTrue();
		assertThat(SessionOwners.of(this.store).owner("s1").block(TIMEOUT)).isEqualTo("alice");
		assertThat(history(agent, "s1", ALICE)).hasSize(4);
	}

	@Test
	void anotherPrincipalIsRefusedAsForAnUnknownSessionAndTheModelNeverSeesItsMessage() {
		Agent agent = agent();
		agent.invoke(AgentRequest.of("s1", "alice's secret")).contextWrite(AgentPrincipal.context(ALICE))
			.block(TIMEOUT);

		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "bob's message"))
			.contextWrite(AgentPrincipal.context(BOB)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(AgentAccessDeniedException.class)
				.hasMessage("No session 's1'"))
			.verify(TIMEOUT);
		String unknown = agent.history("nobody-has-this").contextWrite(AgentPrincipal.context(BOB))
			.map(Object::toString)
			.onErrorResume((ex) -> Mono.just(ex.getClass().getSimpleName() + ": " + ex.getMessage()))
			.block(TIMEOUT);
		String foreign = agent.history("s1").contextWrite(AgentPrincipal.context(BOB))
			.map(Object::toString)
			.onErrorResume((ex) -> Mono.just(ex.getClass().getSimpleName() + ": " + ex.getMessage()))
			.block(TIMEOUT);

		// the same answer for someone else's session and for one that does not exist
		assertThat(foreign).isEqualTo("AgentAccessDeniedException: No session 's1'");
		assertThat(unknown).isEqualTo("AgentAccessDeniedException: No session 'nobody-has-this'");
		assertThat(this.model.requests()).hasSize(1);
		assertThat(this.model.requests()).allSatisfy((request) -> assertThat(request.messages())
			.extracting(Message::text)
			.doesNotContain("bob's message"));
		assertThat(history(agent, "s1", ALICE)).extracting(Message::text).containsExactly("alice's secret", "ok");
		assertThat(this.audited).extracting(AuditEvent::kind).contains(AuditEvent.Kind.ACCESS_DENIED);
		assertThat(this.audited).filteredOn((event) -> event.kind() == AuditEvent.Kind.ACCESS_DENIED)
			.extracting(AuditEvent::userId)
			.containsOnly("bob");
	}

	@Test
	void aStreamOfAnotherPrincipalEndsWithTheUnknownSessionFailure() {
		Agent agent = agent();
		agent.invoke(AgentRequest.of("s1", "hi")).contextWrite(AgentPrincipal.context(ALICE)).block(TIMEOUT);

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "bob's"))
			.contextWrite(AgentPrincipal.context(BOB))
			.collectList()
			.block(TIMEOUT);

		assertThat(events).hasSize(1);
		assertThat(events.get(0)).isInstanceOfSatisfying(AgentEvent.Failed.class,
				(failed) -> assertThat(failed.cause()).isInstanceOf(AgentAccessDeniedException.class));
		assertThat(TurnFailure.of(((AgentEvent.Failed) events.get(0)).cause()).code())
			.isEqualTo(AgentAccessDeniedException.CODE);
		assertThat(this.model.requests()).hasSize(1);
	}

	@Test
	void anAnonymousCallerReachesOnlySessionsNobodyOwns() {
		Agent agent = agent();
		agent.invoke(AgentRequest.of("owned", "hi")).contextWrite(AgentPrincipal.context(ALICE)).block(TIMEOUT);

		AgentResult open = agent.invoke(AgentRequest.of("open", "hi")).block(TIMEOUT);
		StepVerifier.create(agent.invoke(AgentRequest.of("owned", "let me in")))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);
		StepVerifier.create(agent.pendingTurn("owned")).expectError(AgentAccessDeniedException.class).verify(TIMEOUT);
		StepVerifier.create(agent.resume(ResumeRequest.of("owned", Map.of())))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);

		assertThat(open.isCompleted()).isTrue();
		assertThat(agent.history("open").block(TIMEOUT)).hasSize(2);
		assertThat(SessionOwners.of(this.store).owner("open").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void aPrincipalClaimsASessionNobodyOwnsYetButCannotReadOneItDoesNotOwn() {
		Agent agent = agent();
		agent.invoke(AgentRequest.of("open", "anonymous first")).block(TIMEOUT);

		StepVerifier.create(agent.history("open").contextWrite(AgentPrincipal.context(ALICE)))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);
		agent.invoke(AgentRequest.of("open", "mine now")).contextWrite(AgentPrincipal.context(ALICE)).block(TIMEOUT);

		assertThat(SessionOwners.of(this.store).owner("open").block(TIMEOUT)).isEqualTo("alice");
		StepVerifier.create(agent.invoke(AgentRequest.of("open", "still open?")))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);
	}

	@Test
	void thePrincipalsNameIsTheTurnsUserIdAndAnotherUserIdIsRefused() {
		List<String> userIds = new ArrayList<>();
		Agent agent = Agent.builder()
			.name("helper")
			.model(this.model)
			.conversationStore(new InMemoryConversationStore())
			.store(this.store)
			.middleware(new UserIdRecorder(userIds))
			.build();

		agent.invoke(AgentRequest.of("s1", "hi")).contextWrite(AgentPrincipal.context(ALICE)).block(TIMEOUT);
		agent.invoke(AgentRequest.of("s1", "hi").withUserId("alice")).contextWrite(AgentPrincipal.context(ALICE))
			.block(TIMEOUT);
		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "as bob").withUserId("bob"))
			.contextWrite(AgentPrincipal.context(ALICE)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(AgentAccessDeniedException.class)
				.hasMessageContaining("cannot name another user"))
			.verify(TIMEOUT);

		assertThat(userIds).containsExactly("alice", "alice");
		assertThat(this.model.requests()).hasSize(2);
	}

	@Test
	void withoutAuthenticationAnAnonymousCallersUserIdIsKeptAsALabel() {
		List<String> userIds = new ArrayList<>();
		Agent agent = Agent.builder()
			.name("helper")
			.model(this.model)
			.store(this.store)
			.middleware(new UserIdRecorder(userIds))
			.build();

		agent.invoke(AgentRequest.of("s1", "hi").withUserId("u-1")).block(TIMEOUT);

		assertThat(userIds).containsExactly("u-1");
	}

	@Test
	void withAuthenticationAnAnonymousCallersUserIdIsIgnored() {
		List<String> userIds = new ArrayList<>();
		CallerResolver nobody = (context) -> Mono.empty();
		Agent agent = Agent.builder()
			.name("helper")
			.model(this.model)
			.store(this.store)
			.callers(nobody)
			.middleware(new UserIdRecorder(userIds))
			.build();

		agent.invoke(AgentRequest.of("s1", "hi").withUserId("bob")).block(TIMEOUT);

		assertThat(userIds).containsNull().hasSize(1);
	}

	@Test
	void theResolverIsAskedWhenTheContextHasNoPrincipalAndItsCallerReachesTheTools() {
		List<String> userIds = new ArrayList<>();
		CallerResolver alice = (context) -> Mono.just(ALICE);
		Agent agent = Agent.builder()
			.name("helper")
			.model(this.model)
			.store(this.store)
			.callers(alice)
			.middleware(new UserIdRecorder(userIds))
			.build();

		agent.invoke(AgentRequest.of("s1", "hi")).block(TIMEOUT);
		// an explicit principal in the context wins over the resolver
		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")).contextWrite(AgentPrincipal.context(BOB)))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);
		// and so does an explicit anonymous mark
		StepVerifier.create(agent.invoke(AgentRequest.of("s1", "hi")).contextWrite(CallerResolver.anonymous()))
			.expectError(AgentAccessDeniedException.class)
			.verify(TIMEOUT);

		assertThat(userIds).containsExactly("alice");
		assertThat(SessionOwners.of(this.store).owner("s1").block(TIMEOUT)).isEqualTo("alice");
	}

	private static List<Message> history(Agent agent, String sessionId, AgentPrincipal caller) {
		return agent.history(sessionId).contextWrite(AgentPrincipal.context(caller)).block(TIMEOUT);
	}

	/** Records the user id each turn runs for, as the budget and the session list see it. */
	private record UserIdRecorder(List<String> userIds) implements dev.agcore.middleware.AgentMiddleware {

		@Override
		public void beforeAgent(dev.agcore.middleware.AgentContext context, List<Message> messages) {
			this.userIds.add(context.userId());
		}

	}

}
