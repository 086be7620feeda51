package dev.agcore.retrieval.knowledge;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.run.MutableClock;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link KnowledgeStore}.
 */
class KnowledgeStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final InMemoryKeyValueStore keyValues = new InMemoryKeyValueStore();

	private final MutableClock clock = new MutableClock(T0);

	private final KnowledgeStore store = new KnowledgeStore(this.keyValues, "docs", new KeywordRetriever(), this.clock);

	@Test
	void addedPagesCanBeReadWithTheirTimestamps() {
		KnowledgePage page = KnowledgePage.of("guides/retry", "Retry policy", "How clients retry.", "Three times.")
			.withTags(List.of("http", "resilience"))
			.withReferences(List.of("guides/timeouts"));

		KnowledgePage stored = this.store.add(page).block(TIMEOUT);

		assertThat(stored.createdAt()).isEqualTo(T0);
		assertThat(stored.updatedAt()).isEqualTo(T0);
		assertThat(this.store.get("guides/retry").block(TIMEOUT)).isEqualTo(stored);
		assertThat(this.keyValues.keys("knowledge:docs").block(TIMEOUT)).containsExactly("guides/retry");
	}

	@Test
	void anUpdateKeepsTheCreationTime() {
		this.store.add(KnowledgePage.of("p", "Old", "", "old text")).block(TIMEOUT);
		this.clock.set(T0.plusSeconds(60));

		KnowledgePage updated = this.store.update(KnowledgePage.of("p", "New", "", "new text")).block(TIMEOUT);
		this.clock.set(T0.plusSeconds(120));
		KnowledgePage added = this.store.add(KnowledgePage.of("p", "Newer", "", "newer text")).block(TIMEOUT);

		assertThat(updated.createdAt()).isEqualTo(T0);
		assertThat(updated.updatedAt()).isEqualTo(T0.plusSeconds(60));
		assertThat(added.createdAt()).isEqualTo(T0);
		assertThat(added.updatedAt()).isEqualTo(T0.plusSeconds(120));
		assertThat(this.store.get("p").block(TIMEOUT).title()).isEqualTo("Newer");
	}

	@Test
	void updatingAMissingPageFailsNamingIt() {
		StepVerifier.create(this.store.update(KnowledgePage.of("nope", "T", "", "")))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(KnowledgePageNotFoundException.class)
				.hasMessage("Knowledge store 'docs' has no page 'nope'"))
			.verify(TIMEOUT);
	}

	@Test
	void deletedPagesLeaveTheStoreTheIndexAndTheSearch() {
		this.store.add(KnowledgePage.of("a", "Kafka topics", "", "")).block(TIMEOUT);

		assertThat(this.store.delete("a").block(TIMEOUT)).isTrue();
		assertThat(this.store.delete("a").block(TIMEOUT)).isFalse();
		assertThat(this.store.get("a").blockOptional(TIMEOUT)).isEmpty();
		assertThat(this.store.index()).isEmpty();
		assertThat(this.store.search("kafka").block(TIMEOUT)).isEmpty();
	}

	@Test
	void searchesFindPagesByTheirContent() {
		this.store.add(KnowledgePage.of("events", "Messaging", "Where events go.", "Domain events go through Kafka."))
			.block(TIMEOUT);
		this.store.add(KnowledgePage.of("billing", "Billing", "Invoices.", "Invoices are monthly.")).block(TIMEOUT);

		List<ScoredDocument> found = this.store.search("kafka").block(TIMEOUT);

		assertThat(found).extracting((scored) -> scored.document().id()).containsExactly("events");
		assertThat(found.get(0).document().metadata()).containsEntry("source", "knowledge")
			.containsEntry("namespace", "docs");
	}

	@Test
	void searchesCanFilterOnATag() {
		this.store.add(KnowledgePage.of("a", "Cache settings", "", "").withTags(List.of("redis", "ops"))).block(TIMEOUT);
		this.store.add(KnowledgePage.of("b", "Cache design", "", "").withTags(List.of("design"))).block(TIMEOUT);

		List<ScoredDocument> found = this.store
			.retrieve(SearchRequest.of("cache").withFilter(Map.of("tag:design", "true")))
			.block(TIMEOUT);

		assertThat(found).extracting((scored) -> scored.document().id()).containsExactly("b");
	}

	@Test
	void theIndexPageListsTitlesAndSummariesById() {
		this.store.add(KnowledgePage.of("b/retry", "Retry policy", "How clients\nretry.", "")).block(TIMEOUT);
		this.store.add(KnowledgePage.of("a", "", "", "no title")).block(TIMEOUT);
		this.store.add(KnowledgePage.of("c (old) notes", "[Draft]", "", "")).block(TIMEOUT);

		assertThat(this.store.index()).extracting(KnowledgeIndexEntry::id)
			.containsExactly("a", "b/retry", "c (old) notes");
		assertThat(this.store.indexPage()).isEqualTo("""
				# Knowledge index: docs

				- [a](a)
				- [Retry policy](b/retry) — How clients retry.
				- [\\[Draft\\]](c%20%28old%29%20notes)
				""");
	}

	@Test
	void anEmptyIndexPageSaysSo() {
		assertThat(this.store.indexPage()).contains("No pages yet.");
	}

	@Test
	void rebuildingReadsPagesWrittenByAnotherInstanceAndDropsRemovedOnes() {
		this.store.add(KnowledgePage.of("old", "Old page about kafka", "", "")).block(TIMEOUT);
		KnowledgeStore other = new KnowledgeStore(this.keyValues, "docs");
		other.add(KnowledgePage.of("new", "New page about kafka", "", "")).block(TIMEOUT);
		other.delete("old").block(TIMEOUT);
		assertThat(this.store.index()).extracting(KnowledgeIndexEntry::id).containsExactly("old");

		assertThat(this.store.rebuildIndex().block(TIMEOUT)).isEqualTo(1);

		assertThat(this.store.index()).extracting(KnowledgeIndexEntry::id).containsExactly("new");
		assertThat(this.store.search("kafka").block(TIMEOUT)).extracting((scored) -> scored.document().id())
			.containsExactly("new");
	}

	@Test
	void rebuildingSkipsPagesThatCannotBeRead() {
		this.store.add(KnowledgePage.of("good", "Good page", "", "")).block(TIMEOUT);
		this.keyValues.put("knowledge:docs", "bad", AgentJson.mapper().createObjectNode().put("id", 42))
			.block(TIMEOUT);

		assertThat(this.store.rebuildIndex().block(TIMEOUT)).isEqualTo(1);
		StepVerifier.create(this.store.get("bad"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(KnowledgeStoreException.class)
				.hasMessageContaining("'bad'")
				.hasMessageContaining("knowledge:docs")
				.hasMessageContaining("'id' is not text"))
			.verify(TIMEOUT);
	}

	@Test
	void aPageThatCannotBeReadCanBeReplaced() {
		this.keyValues.put("knowledge:docs", "bad", AgentJson.mapper().createObjectNode().put("id", 42))
			.block(TIMEOUT);

		KnowledgePage updated = this.store.update(KnowledgePage.of("bad", "Fixed", "", "")).block(TIMEOUT);

		assertThat(updated.createdAt()).isEqualTo(T0);
		assertThat(this.store.get("bad").block(TIMEOUT).title()).isEqualTo("Fixed");
	}

	@Test
	void storesWithOtherNamesAreApart() {
		KnowledgeStore other = new KnowledgeStore(this.keyValues, "other");
		other.add(KnowledgePage.of("a", "Other", "", "")).block(TIMEOUT);

		assertThat(this.store.get("a").blockOptional(TIMEOUT)).isEmpty();
		assertThat(this.store.rebuildIndex().block(TIMEOUT)).isZero();
	}

	@Test
	void pageIdsAreChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> KnowledgePage.of("", "T", "", ""))
			.withMessageContaining("1 to 256 characters");
		assertThatIllegalArgumentException().isThrownBy(() -> KnowledgePage.of(" a", "T", "", ""))
			.withMessageContaining("must not start or end with a space");
		assertThatIllegalArgumentException().isThrownBy(() -> KnowledgePage.of("a\nb", "T", "", ""))
			.withMessageContaining("control characters");
	}

	@Test
	void tagsAreStrippedAndDeduplicated() {
		KnowledgePage page = KnowledgePage.of("a", "T", "", "").withTags(List.of(" x ", "x", "", "y"));
		assertThat(page.tags()).containsExactly("x", "y");
		assertThat(page.toDocument("docs").metadata()).containsEntry("tags", "x, y").containsEntry("tag:y", "true");
	}

}
