package dev.agcore.retrieval.lucene;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;
import dev.agcore.json.AgentJson;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures the keyword channel, the vector channel (the real in-process MiniLM model) and
 * their fusion on the labelled English and Chinese set in
 * {@code retrieval/hybrid-eval.json}, and checks that fusing is worth it: by MRR@10 hybrid
 * ranks at least as well as either channel in each language and better than both overall,
 * and finds at least as many answers in its top 3. The numbers are printed, per language
 * and per kind of query.
 */
class HybridRetrievalQualityTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final int K = 10;

	private static EvalSet set;

	private static LuceneDocumentIndex index;

	@BeforeAll
	static void indexTheSet() throws IOException {
		try (InputStream in = HybridRetrievalQualityTests.class.getResourceAsStream("/retrieval/hybrid-eval.json")) {
			set = AgentJson.mapper().readValue(Objects.requireNonNull(in), EvalSet.class);
		}
		index = LuceneDocumentIndex.builder().embeddingModel(new LocalOnnxEmbeddingModel()).build();
		List<Document> documents = set.documents()
			.stream()
			.map((doc) -> new Document(doc.id(), doc.title(), "", doc.content(), Map.of("lang", doc.id().substring(0, 1))))
			.toList();
		index.add(documents).block(TIMEOUT);
	}

	@AfterAll
	static void close() {
		index.close();
	}

	@Test
	void hybridRanksAtLeastAsWellAsEitherChannelInEachLanguageAndBetterOverall() {
		Map<String, Retriever> channels = new LinkedHashMap<>();
		channels.put("bm25", index.keywordChannel());
		channels.put("vector", index.vectorChannel());
		channels.put("hybrid", index);
		Map<String, Map<String, Metrics>> results = new LinkedHashMap<>();
		for (Map.Entry<String, Retriever> channel : channels.entrySet()) {
			Map<String, Metrics> byGroup = new LinkedHashMap<>();
			for (String group : List.of("all", "en", "zh", "lexical", "paraphrase", "mixed")) {
				byGroup.put(group, measure(channel.getValue(), group));
			}
			results.put(channel.getKey(), byGroup);
		}
		print(results);
		for (String group : List.of("all", "en", "zh")) {
			Metrics bm25 = results.get("bm25").get(group);
			Metrics vector = results.get("vector").get(group);
			Metrics hybrid = results.get("hybrid").get(group);
			assertThat(hybrid.mrr()).as("MRR of hybrid vs bm25 on %s", group).isGreaterThanOrEqualTo(bm25.mrr());
			assertThat(hybrid.mrr()).as("MRR of hybrid vs vector on %s", group).isGreaterThanOrEqualTo(vector.mrr());
		}
		Metrics bm25 = results.get("bm25").get("all");
		Metrics vector = results.get("vector").get("all");
		Metrics hybrid = results.get("hybrid").get("all");
		assertThat(hybrid.recallAt3()).as("recall@3 of hybrid vs bm25").isGreaterThanOrEqualTo(bm25.recallAt3());
		assertThat(hybrid.recallAt3()).as("recall@3 of hybrid vs vector").isGreaterThanOrEqualTo(vector.recallAt3());
		assertThat(hybrid.mrr()).as("MRR of hybrid vs the better channel")
			.isGreaterThan(Math.max(bm25.mrr(), vector.mrr()));
	}

	private Metrics measure(Retriever retriever, String group) {
		double reciprocalRanks = 0;
		int foundIn3 = 0;
		int count = 0;
		for (Query query : set.queries()) {
			if (!inGroup(query, group)) {
				continue;
			}
			count++;
			List<ScoredDocument> found = retriever.retrieve(new SearchRequest(query.text(), K, -1, Map.of()))
				.block(TIMEOUT);
			List<String> ids = Objects.requireNonNull(found).stream().map((scored) -> scored.document().id()).toList();
			for (int rank = 0; rank < ids.size(); rank++) {
				if (query.relevant().contains(ids.get(rank))) {
					reciprocalRanks += 1.0 / (rank + 1);
					break;
				}
			}
			if (ids.subList(0, Math.min(3, ids.size())).stream().anyMatch(query.relevant()::contains)) {
				foundIn3++;
			}
		}
		return new Metrics(count, reciprocalRanks / count, (double) foundIn3 / count);
	}

	private static boolean inGroup(Query query, String group) {
		return switch (group) {
			case "all" -> true;
			case "en" -> query.id().startsWith("qe");
			case "zh" -> query.id().startsWith("qz");
			default -> query.kind().equals(group);
		};
	}

	private static void print(Map<String, Map<String, Metrics>> results) {
		StringBuilder table = new StringBuilder("\nRetrieval quality on retrieval/hybrid-eval.json (")
			.append(set.documents().size()).append(" documents, ").append(set.queries().size())
			.append(" queries; MRR@10 / recall@3)\n");
		table.append(String.format("%-8s", ""));
		results.values().iterator().next().forEach((group, metrics) -> table.append(String.format("| %-18s", group + " (" + metrics.queries() + ")")));
		table.append('\n');
		results.forEach((channel, byGroup) -> {
			table.append(String.format("%-8s", channel));
			byGroup.values().forEach((metrics) -> table.append(String.format("| %.3f / %.3f     ", metrics.mrr(), metrics.recallAt3())));
			table.append('\n');
		});
		System.out.println(table);
	}

	record Metrics(int queries, double mrr, double recallAt3) {
	}

	record EvalDocument(String id, String title, String content) {
	}

	record Query(String id, String kind, String text, List<String> relevant) {
	}

	record EvalSet(String about, List<EvalDocument> documents, List<Query> queries) {
	}

}
