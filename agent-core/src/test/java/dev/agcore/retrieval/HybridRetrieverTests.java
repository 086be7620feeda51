package dev.agcore.retrieval;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Offset.offset;

/**
 * Tests for {@link HybridRetriever} and {@link ReciprocalRankFusion}.
 */
class HybridRetrieverTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Test
	void documentsRankedWellByBothRetrieversComeFirst() {
		Retriever keyword = fixed("a", "b", "c");
		Retriever vector = fixed("c", "d", "a");
		List<ScoredDocument> found = new HybridRetriever(List.of(keyword, vector)).retrieve(SearchRequest.of("q"))
			.block(TIMEOUT);
		assertThat(ids(found)).containsExactly("a", "c", "b", "d");
		assertThat(found.get(0).score()).isCloseTo(1.0 / 61 + 1.0 / 63, offset(1e-12));
		assertThat(found.get(2).score()).isCloseTo(1.0 / 62, offset(1e-12));
	}

	@Test
	void aDocumentCountsOncePerRetrieverAndTiesKeepTheRetrieversOrder() {
		List<ScoredDocument> fused = new ReciprocalRankFusion(60).fuse(
				List.of(scored("x", "x", "y"), scored("z")), 10, 0);
		// x: 1/61 once, not twice; z ties with x and comes after it
		assertThat(ids(fused)).containsExactly("x", "z", "y");
		assertThat(fused.get(0).score()).isCloseTo(1.0 / 61, offset(1e-12));
		assertThat(fused.get(2).score()).isCloseTo(1.0 / 62, offset(1e-12));
	}

	@Test
	void kChangesHowMuchTheTopRanksWeigh() {
		List<List<ScoredDocument>> rankings = List.of(scored("a", "b", "c", "y"), scored("e", "f", "y"));
		// with k = 1 the first place of one list beats two middling places; with k = 60 it does not
		assertThat(ids(new ReciprocalRankFusion(1).fuse(rankings, 1, 0))).containsExactly("a");
		assertThat(ids(new ReciprocalRankFusion(60).fuse(rankings, 1, 0))).containsExactly("y");
	}

	@Test
	void topKAndMinScoreApplyToTheFusedList() {
		HybridRetriever hybrid = new HybridRetriever(List.of(fixed("a", "b", "c"), fixed("a")));
		assertThat(ids(hybrid.retrieve(SearchRequest.of("q").withTopK(2)).block(TIMEOUT))).containsExactly("a", "b");
		assertThat(ids(hybrid.retrieve(SearchRequest.of("q").withMinScore(0.02)).block(TIMEOUT))).containsExactly("a");
	}

	@Test
	void retrieversAreAskedForCandidatesWithTheFilterAndNoMinimumScore() {
		List<SearchRequest> asked = new ArrayList<>();
		Retriever recording = (request) -> {
			asked.add(request);
			return Mono.just(List.of());
		};
		new HybridRetriever(List.of(recording), 60, 25)
			.retrieve(new SearchRequest("q", 5, 0.5, Map.of("ns", "docs")))
			.block(TIMEOUT);
		new HybridRetriever(List.of(recording), 60, 25).retrieve(new SearchRequest("q", 40, 0, Map.of())).block(TIMEOUT);
		assertThat(asked).containsExactly(new SearchRequest("q", 25, 0, Map.of("ns", "docs")),
				new SearchRequest("q", 40, 0, Map.of()));
	}

	@Test
	void aFailingRetrieverIsLeftOutWhileAnotherAnswers() {
		Retriever broken = (request) -> Mono.error(new IllegalStateException("embedding service down"));
		HybridRetriever hybrid = new HybridRetriever(List.of(broken, fixed("a")));
		assertThat(ids(hybrid.retrieve(SearchRequest.of("q")).block(TIMEOUT))).containsExactly("a");
	}

	@Test
	void theSearchFailsWhenEveryRetrieverFails() {
		Retriever first = (request) -> Mono.error(new IllegalStateException("first down"));
		Retriever second = (request) -> {
			throw new IllegalStateException("second down");
		};
		StepVerifier.create(new HybridRetriever(List.of(first, second)).retrieve(SearchRequest.of("q")))
			.expectErrorMessage("first down")
			.verify(TIMEOUT);
	}

	@Test
	void invalidSettingsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new HybridRetriever(List.of()))
			.withMessage("'retrievers' must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> new HybridRetriever(List.of(fixed()), 0, 10))
			.withMessage("'k' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new HybridRetriever(List.of(fixed()), 60, 0))
			.withMessage("'candidates' must be at least 1, was 0");
	}

	private static Retriever fixed(String... ids) {
		return (request) -> Mono.just(scored(ids));
	}

	private static List<ScoredDocument> scored(String... ids) {
		List<ScoredDocument> scored = new ArrayList<>();
		for (int i = 0; i < ids.length; i++) {
			scored.add(new ScoredDocument(Document.of(ids[i], "text of " + ids[i]), ids.length - i));
		}
		return scored;
	}

	private static List<String> ids(List<ScoredDocument> found) {
		return found.stream().map((scored) -> scored.document().id()).toList();
	}

}
