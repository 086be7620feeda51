package dev.agcore.memory;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SessionOwners}: the first claim wins, and a deleted session loses its
 * owner with the rest of it.
 */
class SessionOwnersTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

	private final SessionOwners owners = SessionOwners.of(this.store);

	@Test
	void theFirstClaimWinsAndLaterClaimsLearnTheOwner() {
		assertThat(this.owners.owner("s1").blockOptional(TIMEOUT)).isEmpty();
		assertThat(this.owners.claim("s1", "alice").block(TIMEOUT)).isEqualTo("alice");
		assertThat(this.owners.claim("s1", "bob").block(TIMEOUT)).isEqualTo("alice");
		assertThat(this.owners.claim("s1", "alice").block(TIMEOUT)).isEqualTo("alice");
		assertThat(this.owners.owner("s1").block(TIMEOUT)).isEqualTo("alice");
		assertThat(this.owners.owner("s2").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void deletingASessionForgetsItsOwner() {
		AgentSessions sessions = new AgentSessions(new InMemoryConversationStore(), this.store, List.of("helper"));
		sessions.owners().claim("s1", "alice").block(TIMEOUT);

		sessions.delete("s1", "alice").block(TIMEOUT);

		assertThat(this.owners.owner("s1").blockOptional(TIMEOUT)).isEmpty();
		assertThat(this.owners.claim("s1", "bob").block(TIMEOUT)).isEqualTo("bob");
	}

	@Test
	void ownersLiveInANamespacePerSessionThatNoToolNamespaceCanName() {
		this.owners.claim("s1", "alice").block(TIMEOUT);
		assertThat(this.store.keys(SessionOwners.NAMESPACE_PREFIX + "s1").block(TIMEOUT)).containsExactly("owner");
		assertThat(this.store.keys(SessionMemory.NAMESPACE_PREFIX + "s1").block(TIMEOUT)).isEmpty();
	}

}
