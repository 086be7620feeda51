package dev.agcore.retrieval.lucene;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LuceneDocumentIndex}.
 */
class LuceneDocumentIndexTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final List<LuceneDocumentIndex> opened = new ArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void closeIndexes() {
		this.opened.forEach(LuceneDocumentIndex::close);
	}

	@Test
	void keywordOnlyIndexFindsEnglishByStemmedWordsAndBoostsTitles() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder());
		add(index, new Document("body", "Security notes", "", "Our policy on passwords: change passwords yearly.", Map.of()),
				new Document("title", "Password policy", "", "Rules for staff.", Map.of()),
				new Document("other", "Canteen", "", "Lunch is served at noon.", Map.of()));
		assertThat(ids(index, "password")).containsExactly("title", "body");
	}

	@Test
	void keywordSearchMatchesChineseWithoutADictionary() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder());
		add(index, Document.of("leave", "员工每年享有十五天带薪年假。"), Document.of("expenses", "出差费用请在三十天内报销。"));
		assertThat(ids(index, "怎么报销出差费用")).containsExactly("expenses");
		assertThat(ids(index, "带薪年假")).containsExactly("leave");
	}

	@Test
	void queryTextIsNeverParsedAsQuerySyntax() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder());
		add(index, Document.of("a", "title and content"));
		assertThat(ids(index, "title:(content AND \"x* ~2 [a TO z]")).containsExactly("a");
		assertThat(ids(index, "the of and")).isEmpty();
		assertThat(ids(index, "")).isEmpty();
	}

	@Test
	void addingAnIdAgainReplacesTheDocumentAndDeleteRemovesIt() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder());
		add(index, Document.of("a", "apples"), Document.of("b", "bananas"));
		add(index, Document.of("a", "cherries"));
		assertThat(ids(index, "apples")).isEmpty();
		assertThat(ids(index, "cherries")).containsExactly("a");
		index.delete(List.of("a", "unknown")).block(TIMEOUT);
		assertThat(ids(index, "cherries")).isEmpty();
		assertThat(index.size()).isEqualTo(1);
	}

	@Test
	void returnedDocumentsKeepEveryFieldAndMetadata() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 16)));
		Document document = new Document("d1", "Title", "Summary", "Content about kiwis",
				Map.of("namespace", "fruit", "source", "notes.md"));
		add(index, document);
		List<ScoredDocument> found = index.retrieve(SearchRequest.of("kiwis")).block(TIMEOUT);
		assertThat(found).extracting(ScoredDocument::document).containsExactly(document);
	}

	@Test
	void filtersApplyInsideBothChannelsSoTopKIsStillFilled() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 32)));
		List<Document> documents = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			documents.add(new Document("other-" + i, "", "", "refund request number " + i, Map.of("team", "other")));
		}
		documents.add(new Document("mine-1", "", "", "refund request", Map.of("team", "mine")));
		documents.add(new Document("mine-2", "", "", "refund", Map.of("team", "mine", "tag", "x")));
		add(index, documents.toArray(Document[]::new));
		SearchRequest request = new SearchRequest("refund request", 2, -1, Map.of("team", "mine"));
		assertThat(ids(index.keywordChannel().retrieve(request).block(TIMEOUT))).containsExactlyInAnyOrder("mine-1",
				"mine-2");
		assertThat(ids(index.vectorChannel().retrieve(request).block(TIMEOUT))).containsExactlyInAnyOrder("mine-1",
				"mine-2");
		assertThat(ids(index.retrieve(request).block(TIMEOUT))).containsExactlyInAnyOrder("mine-1", "mine-2");
		assertThat(ids(index.retrieve(request.withFilter(Map.of("team", "mine", "tag", "x"))).block(TIMEOUT)))
			.containsExactly("mine-2");
		assertThat(ids(index.retrieve(request.withFilter(Map.of("team", "nobody"))).block(TIMEOUT))).isEmpty();
	}

	@Test
	void vectorChannelFindsDocumentsSharingNoIndexedTermAndScoresByCosine() {
		// the model hashes whole words; the analyzer stems them: "running" is no term of "runs"
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 64)));
		add(index, Document.of("a", "zebra"), Document.of("b", "yak"));
		List<ScoredDocument> found = index.vectorChannel().retrieve(SearchRequest.of("zebra")).block(TIMEOUT);
		assertThat(found).first().satisfies((first) -> {
			assertThat(first.document().id()).isEqualTo("a");
			assertThat(first.score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
		});
	}

	@Test
	void hybridFusesBothChannelsWithReciprocalRanks() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 64)));
		add(index, Document.of("both", "solar panels on the roof"), Document.of("keyword", "solar"),
				Document.of("none", "tea"));
		List<ScoredDocument> found = index.retrieve(SearchRequest.of("solar panels roof")).block(TIMEOUT);
		assertThat(found).isNotEmpty();
		assertThat(found.get(0).document().id()).isEqualTo("both");
		// first in both lists of k = 60
		assertThat(found.get(0).score()).isCloseTo(2.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
	}

	@Test
	void inHybridSearchOneCommonWordOfALongerQueryIsNoKeywordMatch() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 64)));
		add(index, Document.of("quota", "get 5 GB free"), Document.of("other", "zebra"));
		SearchRequest question = SearchRequest.of("get money back");
		// alone, the keyword channel matches any term
		assertThat(ids(index.keywordChannel().retrieve(question).block(TIMEOUT))).containsExactly("quota");
		// fused, it needs two of the three: only the vector channel's first place counts
		List<ScoredDocument> fused = index.retrieve(question).block(TIMEOUT);
		assertThat(fused.get(0).document().id()).isEqualTo("quota");
		assertThat(fused.get(0).score()).isCloseTo(1.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
		// two matching terms are a keyword match again
		assertThat(index.retrieve(SearchRequest.of("get free money")).block(TIMEOUT).get(0).score())
			.isCloseTo(2.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
	}

	@Test
	void concurrentAddsAndSearchesLoseNothing() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 16)));
		List<Mono<?>> work = new ArrayList<>();
		for (int writer = 0; writer < 8; writer++) {
			List<Document> batch = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				batch.add(Document.of("w" + writer + "-" + i, "shared words number " + i));
			}
			work.add(index.add(batch));
			work.add(index.retrieve(SearchRequest.of("shared words")));
		}
		Mono.when(work).block(TIMEOUT);
		assertThat(index.size()).isEqualTo(400);
		assertThat(index.retrieve(SearchRequest.of("shared words").withTopK(500)).block(TIMEOUT)).hasSize(400);
	}

	@Test
	void minScoreAppliesToTheReturnedScale() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("m", 64)));
		add(index, Document.of("a", "zebra"), Document.of("b", "yak"));
		assertThat(ids(index.vectorChannel().retrieve(SearchRequest.of("zebra").withMinScore(0.9)).block(TIMEOUT)))
			.containsExactly("a");
	}

	@Test
	void documentsWithoutTextOrWithAZeroVectorAreIndexedForKeywordsOnly() {
		HashingEmbeddingModel model = model("m", 8);
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model));
		// "---" has no word: a zero vector
		add(index, new Document("empty", "", "", "", Map.of("k", "v")), Document.of("dashes", "---"));
		assertThat(index.size()).isEqualTo(2);
		assertThat(index.vectorChannel().retrieve(SearchRequest.of("anything")).block(TIMEOUT)).isEmpty();
	}

	@Test
	void embedsInBatchesNotOneCallPerDocument() {
		HashingEmbeddingModel model = model("m", 8);
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model));
		List<Document> documents = new ArrayList<>();
		for (int i = 0; i < 70; i++) {
			documents.add(Document.of("d" + i, "text " + i));
		}
		add(index, documents.toArray(Document[]::new));
		assertThat(model.calls).hasValue(3);
	}

	@Test
	void vectorsBeyondLucenesDefault1024DimensionsAreAccepted() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(model("large", 3072)));
		add(index, Document.of("a", "zebra"));
		assertThat(ids(index.vectorChannel().retrieve(SearchRequest.of("zebra")).block(TIMEOUT))).containsExactly("a");
	}

	@Test
	void onDiskIndexOfLargeVectorsReopensAndGrows() {
		LuceneDocumentIndex index = LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 1536))
			.build();
		add(index, Document.of("a", "zebra"));
		index.close();
		LuceneDocumentIndex reopened = open(
				LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 1536)));
		add(reopened, Document.of("b", "yak"));
		assertThat(ids(reopened.vectorChannel().retrieve(SearchRequest.of("yak")).block(TIMEOUT))).first()
			.isEqualTo("b");
		assertThat(ids(reopened.vectorChannel().retrieve(SearchRequest.of("zebra")).block(TIMEOUT))).first()
			.isEqualTo("a");
	}

	@Test
	void whenEmbeddingTheQueryFailsKeywordsAnswerAlone() {
		boolean[] failing = { false };
		EmbeddingModel flaky = new HashingEmbeddingModel("flaky", 8) {
			@Override
			public Mono<List<float[]>> embed(List<String> texts) {
				return failing[0] ? Mono.error(new IllegalStateException("embedding service down")) : super.embed(texts);
			}
		};
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(flaky));
		add(index, Document.of("a", "zebra"), Document.of("b", "yak"));
		failing[0] = true;
		assertThat(ids(index, "zebra")).containsExactly("a");
		reactor.test.StepVerifier.create(index.vectorChannel().retrieve(SearchRequest.of("zebra")))
			.expectErrorMessage("embedding service down")
			.verify(TIMEOUT);
	}

	@Test
	void onDiskIndexSurvivesReopening() {
		LuceneDocumentIndex index = LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 16))
			.build();
		add(index, Document.of("a", "persistent zebra"));
		index.close();
		LuceneDocumentIndex reopened = open(
				LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 16)));
		assertThat(ids(reopened, "zebra")).containsExactly("a");
	}

	@Test
	void reopeningWithAnotherModelOrDimensionsFailsNamingBoth() {
		LuceneDocumentIndex index = LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 16))
			.build();
		add(index, Document.of("a", "zebra"));
		index.close();
		assertThatIllegalStateException()
			.isThrownBy(() -> LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("n", 16)).build())
			.withMessageContaining("built with embedding model 'm' (16 dimensions)")
			.withMessageContaining("opened with 'n' (16 dimensions)")
			.withMessageContaining(this.directory.toAbsolutePath().toString());
		assertThatIllegalStateException()
			.isThrownBy(() -> LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 32)).build())
			.withMessageContaining("opened with 'm' (32 dimensions)");
		assertThatIllegalStateException()
			.isThrownBy(() -> LuceneDocumentIndex.builder().path(this.directory).build())
			.withMessageContaining("opened with 'none'");
		// the failed attempts left the index as it was
		assertThat(ids(open(LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 16))),
				"zebra")).containsExactly("a");
	}

	@Test
	void anEmptyIndexMayBeReopenedWithAnyModel() {
		LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("m", 16)).build().close();
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().path(this.directory).embeddingModel(model("n", 8)));
		add(index, Document.of("a", "zebra"));
		assertThat(ids(index, "zebra")).containsExactly("a");
	}

	@Test
	void aModelReturningVectorsOfTheWrongSizeFailsTheAddNamingIt() {
		EmbeddingModel liar = new HashingEmbeddingModel("liar", 8) {
			@Override
			public int dimensions() {
				return 16;
			}
		};
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder().embeddingModel(liar));
		Mono<Void> add = index.add(List.of(Document.of("a", "zebra")));
		reactor.test.StepVerifier.create(add)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("'liar' returned a vector of 8 dimensions, but says it has 16"))
			.verify(TIMEOUT);
		assertThat(index.size()).isZero();
	}

	@Test
	void aClosedIndexSaysSo() {
		LuceneDocumentIndex index = LuceneDocumentIndex.builder().build();
		index.close();
		index.close();
		reactor.test.StepVerifier.create(index.retrieve(SearchRequest.of("zebra")))
			.expectErrorSatisfies((ex) -> assertThat(ex).hasMessage("The Lucene index at memory is closed"))
			.verify(TIMEOUT);
	}

	@Test
	void vectorChannelOfAKeywordOnlyIndexIsRefused() {
		LuceneDocumentIndex index = open(LuceneDocumentIndex.builder());
		assertThatIllegalStateException().isThrownBy(index::vectorChannel).withMessageContaining("no embedding model");
	}

	private LuceneDocumentIndex open(LuceneDocumentIndex.Builder builder) {
		LuceneDocumentIndex index = builder.build();
		this.opened.add(index);
		return index;
	}

	private static HashingEmbeddingModel model(String name, int dimensions) {
		return new HashingEmbeddingModel(name, dimensions);
	}

	private static void add(LuceneDocumentIndex index, Document... documents) {
		index.add(List.of(documents)).block(TIMEOUT);
	}

	private static List<String> ids(LuceneDocumentIndex index, String query) {
		return ids(index.retrieve(SearchRequest.of(query)).block(TIMEOUT));
	}

	private static List<String> ids(List<ScoredDocument> found) {
		return found.stream().map((scored) -> scored.document().id()).toList();
	}

}
