package dev.agcore.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.List;

import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault load of issue 27: 300 sessions, each with one message of 200 KB, an owner and
 * some session memory. Without a cap in bytes the in-memory stores kept all of it (60 MB
 * and more); with a cap of 16 MB the heap they hold stays under it, and the oldest
 * sessions are the ones evicted, with their memory and owners.
 */
class InMemoryHeapBoundTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final long CAP = 16L * 1024 * 1024;

	private static final int SESSIONS = 300;

	private static final int MESSAGE_CHARS = 200 * 1024;

	@Test
	void threeHundredSessionsOfTwoHundredKilobytesStayUnderTheCap() {
		long before = usedHeapAfterGc();
		InMemoryBytes bytes = InMemoryBytes.of(CAP);
		InMemoryConversationStore conversations = InMemoryBytesTests.conversations(bytes, 1_000);
		InMemoryKeyValueStore store = InMemoryBytesTests.keyValues(bytes);
		SessionOwners owners = SessionOwners.of(store);
		for (int i = 0; i < SESSIONS; i++) {
			String session = "session-" + i;
			owners.claim(session, "user-" + i).block(TIMEOUT);
			// a new string each time, as a request body would be: nothing shared between sessions
			String text = new String(new char[MESSAGE_CHARS]).replace('\0', (char) ('a' + i % 26));
			conversations.append(session, 0, List.of(new UserMessage(text))).block(TIMEOUT);
			SessionMemory.of(store, session).put("note", "kept for " + session);
		}
		long growth = usedHeapAfterGc() - before;

		assertThat(bytes.bytes()).isLessThanOrEqualTo(CAP);
		// a tolerant margin for what the JVM itself allocated meanwhile; without the cap the
		// growth is past 60 MB
		assertThat(growth).as("heap growth in bytes").isLessThan(CAP);
		assertThat(InMemoryBytesTests.load(conversations, "session-0")).isEmpty();
		assertThat(owners.owner("session-0").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.keys(SessionMemory.NAMESPACE_PREFIX + "session-0").block(TIMEOUT)).isEmpty();
		String newest = "session-" + (SESSIONS - 1);
		assertThat(InMemoryBytesTests.load(conversations, newest)).hasSize(1);
		assertThat(owners.owner(newest).block(TIMEOUT)).isEqualTo("user-" + (SESSIONS - 1));
		assertThat(store.keys(SessionMemory.NAMESPACE_PREFIX + newest).block(TIMEOUT)).containsExactly("note");
		// the stores are still in use here, so what they hold was measured
		assertThat(conversations.bytes()).isSameAs(store.bytes());
	}

	private static long usedHeapAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

}
