package dev.agcore.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What every {@link KeyValueStore} (the long-term store, session memory, the knowledge
 * store) must do, run against each implementation: values with metadata and timestamps,
 * listing by prefix, {@code since}, offset and limit, namespaces, time-to-live, capacity,
 * two instances on one backend, and a backend that goes down and comes back.
 */
public abstract class KeyValueStoreContract {

	protected static final Duration TIMEOUT = Duration.ofSeconds(20);

	/** Bounds a store under test is created with. */
	public record Settings(int maxItemsPerNamespace, Duration ttl) {

		public static final Settings DEFAULT = new Settings(10_000, Duration.ZERO);

	}

	protected abstract KeyValueStore createStore(Settings settings);

	protected KeyValueStore secondInstance(KeyValueStore first, Settings settings) {
		return createStore(settings);
	}

	/** Run whatever removes expired items now, for stores that purge on a schedule. */
	protected void purgeExpired(KeyValueStore store) {
	}

	protected @Nullable StoreOutage<KeyValueStore> outage() {
		return null;
	}

	private static String namespace() {
		return "ns-" + UUID.randomUUID();
	}

	private static JsonNode json(String text) {
		return AgentJson.mapper().readTree(text);
	}

	@Test
	void keepsValuesWithMetadataAndTimestamps() throws InterruptedException {
		KeyValueStore store = createStore(Settings.DEFAULT);
		String ns = namespace();
		Instant before = Instant.now().minusSeconds(1);
		store.put(ns, "user.language", json("{\"name\":\"中文\",\"level\":3,\"tags\":[\"a\",null]}"),
				json("{\"source\":\"chat\"}")).block(TIMEOUT);

		MemoryItem item = store.find(ns, "user.language").block(TIMEOUT);
		assertThat(item.value()).isEqualTo(json("{\"name\":\"中文\",\"level\":3,\"tags\":[\"a\",null]}"));
		assertThat(item.metadata()).isEqualTo(json("{\"source\":\"chat\"}"));
		assertThat(item.createdAt()).isAfter(before).isEqualTo(item.updatedAt());
		assertThat(store.get(ns, "user.language").block(TIMEOUT)).isEqualTo(item.value());

		Thread.sleep(20);
		store.put(ns, "user.language", json("\"fr\"")).block(TIMEOUT);
		MemoryItem updated = store.find(ns, "user.language").block(TIMEOUT);
		assertThat(updated.value()).isEqualTo(json("\"fr\""));
		assertThat(updated.metadata()).isEqualTo(json("{}"));
		assertThat(updated.createdAt()).isEqualTo(item.createdAt());
		assertThat(updated.updatedAt()).isAfter(item.updatedAt());
	}

	@Test
	void aValueReadIsIndependentOfTheValueWritten() {
		KeyValueStore store = createStore(Settings.DEFAULT);
		String ns = namespace();
		ObjectNode value = (ObjectNode) json("{\"n\":1}");
		store.put(ns, "k", value).block(TIMEOUT);
		value.put("n", 2);
		JsonNode read = store.get(ns, "k").block(TIMEOUT);
		((ObjectNode) read).put("n", 3);
		assertThat(store.get(ns, "k").block(TIMEOUT)).isEqualTo(json("{\"n\":1}"));
	}

	@Test
	void deleteSaysWhetherThereWasAValue() {
		KeyValueStore store = createStore(Settings.DEFAULT);
		String ns = namespace();
		store.put(ns, "k", json("1")).block(TIMEOUT);
		assertThat(store.delete(ns, "k").block(TIMEOUT)).isTrue();
		assertThat(store.delete(ns, "k").block(TIMEOUT)).isFalse();
		assertThat(store.find(ns, "k").blockOptional(TIMEOUT)).isEmpty();
	}

	@Test
	void listsByPrefixSinceOffsetAndLimitOldestFirst() throws InterruptedException {
		KeyValueStore store = createStore(Settings.DEFAULT);
		String ns = namespace();
		store.put(ns, "note:b", json("1")).block(TIMEOUT);
		Thread.sleep(15);
		store.put(ns, "note:a", json("2")).block(TIMEOUT);
		Thread.sleep(15);
		Instant middle = store.find(ns, "note:a").block(TIMEOUT).createdAt();
		store.put(ns, "other", json("3")).block(TIMEOUT);
		Thread.sleep(15);
		store.put(ns, "note:c", json("4")).block(TIMEOUT);
		// rewriting keeps an item's place: it was created first
		store.put(ns, "note:b", json("5")).block(TIMEOUT);

		assertThat(keys(store.list(ns, ItemQuery.all()).block(TIMEOUT))).containsExactly("note:b", "note:a", "other",
				"note:c");
		assertThat(keys(store.list(ns, ItemQuery.prefix("note:")).block(TIMEOUT))).containsExactly("note:b", "note:a",
				"note:c");
		assertThat(keys(store.list(ns, ItemQuery.prefix("note:").since(middle)).block(TIMEOUT)))
			.containsExactly("note:c");
		assertThat(keys(store.list(ns, ItemQuery.all().page(1, 2)).block(TIMEOUT))).containsExactly("note:a", "other");
		assertThat(store.list(ns, ItemQuery.all().page(10, 2)).block(TIMEOUT)).isEmpty();
		assertThat(store.keys(ns).block(TIMEOUT)).containsExactly("note:a", "note:b", "note:c", "other");
		assertThat(store.list(namespace(), ItemQuery.all()).block(TIMEOUT)).isEmpty();
	}

	@Test
	void namespacesAreIndependentAndClearedWhole() {
		KeyValueStore store = createStore(Settings.DEFAULT);
		String one = namespace();
		String two = namespace();
		store.put(one, "k", json("1")).block(TIMEOUT);
		store.put(one, "j", json("2")).block(TIMEOUT);
		store.put(two, "k", json("3")).block(TIMEOUT);

		assertThat(store.clear(one).block(TIMEOUT)).isEqualTo(2);
		assertThat(store.keys(one).block(TIMEOUT)).isEmpty();
		assertThat(store.get(two, "k").block(TIMEOUT)).isEqualTo(json("3"));
		assertThat(store.clear(one).block(TIMEOUT)).isZero();
	}

	@Test
	void beyondItsCapacityANamespaceDropsTheLeastRecentlyWritten() throws InterruptedException {
		KeyValueStore store = createStore(new Settings(2, Duration.ZERO));
		String ns = namespace();
		store.put(ns, "a", json("1")).block(TIMEOUT);
		Thread.sleep(15);
		store.put(ns, "b", json("2")).block(TIMEOUT);
		Thread.sleep(15);
		store.put(ns, "a", json("3")).block(TIMEOUT);
		Thread.sleep(15);
		store.put(ns, "c", json("4")).block(TIMEOUT);
		purgeExpired(store);

		assertThat(store.keys(ns).block(TIMEOUT)).containsExactly("a", "c");
	}

	@Test
	void anItemOlderThanTheTimeToLiveIsForgotten() throws InterruptedException {
		KeyValueStore store = createStore(new Settings(100, Duration.ofSeconds(1)));
		String ns = namespace();
		store.put(ns, "old", json("1")).block(TIMEOUT);
		Thread.sleep(1500);
		store.put(ns, "new", json("2")).block(TIMEOUT);
		purgeExpired(store);

		assertThat(store.find(ns, "old").blockOptional(TIMEOUT)).isEmpty();
		assertThat(store.keys(ns).block(TIMEOUT)).containsExactly("new");
	}

	@Test
	void twoInstancesSeeEachOthersWritesAndConcurrentWritesLeaveOneValue() throws Exception {
		KeyValueStore one = createStore(Settings.DEFAULT);
		KeyValueStore two = secondInstance(one, Settings.DEFAULT);
		String ns = namespace();
		one.put(ns, "shared", json("\"from one\"")).block(TIMEOUT);
		assertThat(two.get(ns, "shared").block(TIMEOUT)).isEqualTo(json("\"from one\""));

		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> done = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				KeyValueStore store = (i % 2 == 0) ? one : two;
				int writer = i;
				done.add(executor.submit(() -> {
					start.await();
					for (int n = 0; n < 10; n++) {
						store.put(ns, "k", json("{\"writer\":" + writer + ",\"n\":" + n + "}")).block(TIMEOUT);
						store.put(ns, "w" + writer + "-" + n, json("1")).block(TIMEOUT);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		JsonNode last = one.get(ns, "k").block(TIMEOUT);
		assertThat(last.get("n").asInt()).isEqualTo(9);
		assertThat(two.keys(ns).block(TIMEOUT)).hasSize(42);
	}

	@Test
	void putIfAbsentWritesOnlyAKeyWithoutALiveValue() throws InterruptedException {
		KeyValueStore store = createStore(new Settings(100, Duration.ofSeconds(1)));
		String ns = namespace();
		assertThat(store.putIfAbsent(ns, "owner", json("\"alice\""), json("{\"by\":\"claim\"}")).block(TIMEOUT))
			.isTrue();
		assertThat(store.putIfAbsent(ns, "owner", json("\"bob\""), json("{}")).block(TIMEOUT)).isFalse();
		MemoryItem item = store.find(ns, "owner").block(TIMEOUT);
		assertThat(item.value()).isEqualTo(json("\"alice\""));
		assertThat(item.metadata()).isEqualTo(json("{\"by\":\"claim\"}"));

		store.delete(ns, "owner").block(TIMEOUT);
		assertThat(store.putIfAbsent(ns, "owner", json("\"bob\""), json("{}")).block(TIMEOUT)).isTrue();
		// an expired value, purged or not yet, counts as none
		Thread.sleep(1500);
		assertThat(store.putIfAbsent(ns, "owner", json("\"carol\""), json("{}")).block(TIMEOUT)).isTrue();
		assertThat(store.get(ns, "owner").block(TIMEOUT)).isEqualTo(json("\"carol\""));
		assertThat(store.keys(ns).block(TIMEOUT)).containsExactly("owner");
	}

	@Test
	void ofConcurrentPutIfAbsentOnTwoInstancesExactlyOneWins() throws Exception {
		KeyValueStore one = createStore(Settings.DEFAULT);
		KeyValueStore two = secondInstance(one, Settings.DEFAULT);
		for (int round = 0; round < 5; round++) {
			String ns = namespace();
			ExecutorService executor = Executors.newFixedThreadPool(6);
			try {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<Boolean>> claims = new ArrayList<>();
				for (int i = 0; i < 6; i++) {
					KeyValueStore store = (i % 2 == 0) ? one : two;
					String writer = "\"writer-" + i + "\"";
					claims.add(executor.submit(() -> {
						start.await();
						return store.putIfAbsent(ns, "owner", json(writer), json("{}")).block(TIMEOUT);
					}));
				}
				start.countDown();
				List<String> winners = new ArrayList<>();
				for (int i = 0; i < claims.size(); i++) {
					if (claims.get(i).get(60, TimeUnit.SECONDS)) {
						winners.add("\"writer-" + i + "\"");
					}
				}
				assertThat(winners).hasSize(1);
				assertThat(two.get(ns, "owner").block(TIMEOUT)).isEqualTo(json(winners.get(0)));
			}
			finally {
				executor.shutdownNow();
			}
		}
	}

	@Test
	void aStoreThatIsDownFailsClearlyAndComesBack() {
		StoreOutage<KeyValueStore> outage = outage();
		if (outage == null) {
			return;
		}
		KeyValueStore store = outage.store();
		String ns = namespace();
		store.put(ns, "k", json("1")).block(TIMEOUT);
		outage.cut();
		try {
			assertThatExceptionOfType(MemoryUnavailableException.class)
				.isThrownBy(() -> store.put(ns, "k", json("2")).block(TIMEOUT));
			assertThatExceptionOfType(MemoryUnavailableException.class).isThrownBy(() -> store.get(ns, "k").block(TIMEOUT));
		}
		finally {
			outage.restore();
		}
		assertThat(store.get(ns, "k").block(TIMEOUT)).isEqualTo(json("1"));
		store.put(ns, "k", json("3")).block(TIMEOUT);
		assertThat(store.get(ns, "k").block(TIMEOUT)).isEqualTo(json("3"));
	}

	private static List<String> keys(List<MemoryItem> items) {
		return items.stream().map(MemoryItem::key).toList();
	}

}
