package dev.agcore.docs.retrieval;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.knowledge.KnowledgeIndexEntry;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.KnowledgeStore;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;
import dev.agcore.runtime.AgentRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/retrieval.md. */
class RetrievalTests {

	@TempDir
	Path temp;

	@Test
	void theSupportAgentRetrievesFromTheKnowledgeFolder() {
		SnippetContexts.yaml("retrieval/knowledge.yml").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(AgentRegistry.class).get("support").tools()).extracting((spec) -> spec.name())
				.containsExactly("retrieve");
			List<ScoredDocument> hits = context.getBean(KnowledgeStore.class)
				.search("retries backoff")
				.block(Duration.ofSeconds(10));
			assertThat(hits).extracting((hit) -> hit.document().id()).contains("retry-policy");
		});
	}

	@Test
	void theKnowledgeStoreTourEndsWithTheLoadedFolder() throws Exception {
		Path knowledge = Files.createDirectories(this.temp.resolve("knowledge"));
		Files.writeString(knowledge.resolve("retry-policy.md"), """
				---
				title: Retry policy
				summary: How the HTTP client retries failed requests.
				---
				The client retries three times.
				""");
		KnowledgePage page = KnowledgePage.of("pricing", "Pricing", "Plans and prices.", "The team plan costs 10 EUR.");
		KnowledgeStore store = KnowledgeStores.tour(new InMemoryKeyValueStore(), page, knowledge);
		assertThat(store.index()).extracting(KnowledgeIndexEntry::id).containsExactly("retry-policy");
		assertThat(store.get("pricing").blockOptional(Duration.ofSeconds(10))).isEmpty();
	}

	@Test
	void aWrappedInProcessModelEmbedsInTheJvm() {
		new ApplicationContextRunner().withUserConfiguration(LocalModels.class).run((context) -> {
			EmbeddingModel model = context.getBean(EmbeddingModel.class);
			assertThat(model.name()).isEqualTo("local:all-minilm-l6-v2-q");
			List<float[]> vectors = model.embed(List.of("How do I reset my password?")).block(Duration.ofSeconds(60));
			assertThat(vectors).singleElement().satisfies((vector) -> assertThat(vector).hasSize(384).isNotEqualTo(new float[384]));
		});
	}

	@Test
	void aLuceneIndexFindsByKeywordsAndVectors() {
		List<ScoredDocument> hits = LuceneIndexes.search(this.temp.resolve("index"), new LetterEmbeddings());
		assertThat(hits).extracting((hit) -> hit.document().id()).containsExactly("faq-12");
	}

	@Test
	void hybridRetrieversFuseTheirRetrievers() {
		Retriever keywords = (request) -> Mono.just(List.of(new ScoredDocument(Document.of("a", "Alpha"), 1.0)));
		Retriever more = (request) -> Mono.just(List.of(new ScoredDocument(Document.of("b", "Beta"), 1.0)));
		try (LuceneDocumentIndex lucene = LuceneDocumentIndex.builder().embeddingModel(new LetterEmbeddings()).build()) {
			List<Retriever> retrievers = HybridRetrievers.build(keywords, lucene, keywords, more, more);
			assertThat(retrievers.get(0).retrieve(SearchRequest.of("alpha")).block(Duration.ofSeconds(10)))
				.extracting((hit) -> hit.document().id())
				.containsExactly("a");
			assertThat(retrievers.get(1).retrieve(SearchRequest.of("alpha")).block(Duration.ofSeconds(10)))
				.extracting((hit) -> hit.document().id())
				.containsExactlyInAnyOrder("a", "b");
		}
	}

	@Test
	void theLuceneIndexFolderIsConfigurable() {
		SnippetContexts.yaml("retrieval/lucene.yml")
			// the snippet's folder is the reader's; the test's is a temporary one
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("temp index",
						Map.of("agent.retrieval.lucene.path", this.temp.resolve("knowledge-index").toString()))))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	/** Counts letters: a model that needs no network, enough for vectors to find a document. */
	static final class LetterEmbeddings implements EmbeddingModel {

		@Override
		public Mono<List<float[]>> embed(List<String> texts) {
			return Mono.just(texts.stream().map(LetterEmbeddings::vector).toList());
		}

		private static float[] vector(String text) {
			float[] vector = new float[26];
			for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
				if (c >= 'a' && c <= 'z') {
					vector[c - 'a']++;
				}
			}
			vector[0] += 0.001f;
			return vector;
		}

		@Override
		public int dimensions() {
			return 26;
		}

		@Override
		public String name() {
			return "letters";
		}

	}

}
