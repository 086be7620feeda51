package dev.agcore.autoconfigure.retrieval.lucene;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.embedding.EmbeddingModelAutoConfiguration;
import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LuceneIndexAutoConfiguration}.
 */
class LuceneIndexAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EmbeddingModelAutoConfiguration.class, LuceneIndexAutoConfiguration.class))
		.withPropertyValues("agent.embedding.provider=none");

	@TempDir
	Path directory;

	@Test
	void aKeywordOnlyInMemoryIndexWithoutEmbeddingModel() {
		this.runner.run((context) -> {
			LuceneDocumentIndex index = context.getBean(LuceneDocumentIndex.class);
			assertThat(index.embeddingModel()).isNull();
			index.add(List.of(Document.of("a", "zebra crossing"))).block(TIMEOUT);
			assertThat(index.retrieve(SearchRequest.of("zebra")).block(TIMEOUT)).hasSize(1);
		});
	}

	@Test
	void usesTheEmbeddingModelForHybridSearch() {
		this.runner.withBean(EmbeddingModel.class, () -> new ConstantModel("const"))
			.run((context) -> assertThat(context.getBean(LuceneDocumentIndex.class).embeddingModel().name())
				.isEqualTo("const"));
	}

	@Test
	void theInProcessModelIsPickedUpByDefault() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(EmbeddingModelAutoConfiguration.class, LuceneIndexAutoConfiguration.class))
			.run((context) -> {
				LuceneDocumentIndex index = context.getBean(LuceneDocumentIndex.class);
				assertThat(index.embeddingModel().name()).isEqualTo("local:all-minilm-l6-v2-q");
				index.add(List.of(Document.of("pw", "Resetting your password"), Document.of("tea", "Green tea")))
					.block(TIMEOUT);
				List<ScoredDocument> found = index.vectorChannel()
					.retrieve(SearchRequest.of("I forgot my login credentials"))
					.block(TIMEOUT);
				assertThat(found.get(0).document().id()).isEqualTo("pw");
			});
	}

	@Test
	void anOnDiskIndexIsClosedOnShutdownAndReopened() {
		this.runner.withPropertyValues("agent.retrieval.lucene.path=" + this.directory).run((context) -> {
			context.getBean(LuceneDocumentIndex.class).add(List.of(Document.of("a", "kept"))).block(TIMEOUT);
		});
		// the write lock was released by close(): another context opens the same directory
		this.runner.withPropertyValues("agent.retrieval.lucene.path=" + this.directory)
			.run((context) -> assertThat(context.getBean(LuceneDocumentIndex.class).retrieve(SearchRequest.of("kept"))
				.block(TIMEOUT)).hasSize(1));
	}

	@Test
	void theIndexIsClosedWithTheContext() {
		LuceneDocumentIndex[] index = new LuceneDocumentIndex[1];
		this.runner.run((context) -> index[0] = context.getBean(LuceneDocumentIndex.class));
		assertThatIllegalStateException().isThrownBy(index[0]::size).withMessageContaining("is closed");
	}

	@Test
	void reopeningWithAnotherModelFailsNamingThePropertiesToChange() {
		this.runner.withPropertyValues("agent.retrieval.lucene.path=" + this.directory)
			.withBean(EmbeddingModel.class, () -> new ConstantModel("first"))
			.run((context) -> context.getBean(LuceneDocumentIndex.class)
				.add(List.of(Document.of("a", "text")))
				.block(TIMEOUT));
		this.runner.withPropertyValues("agent.retrieval.lucene.path=" + this.directory)
			.withBean(EmbeddingModel.class, () -> new ConstantModel("second"))
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("built with embedding model 'first'")
				.hasMessageContaining("agent.retrieval.lucene.path"));
	}

	@Test
	void aPathThatIsAFileFailsNamingTheProperty() throws Exception {
		Path file = Files.writeString(this.directory.resolve("file"), "not a directory");
		this.runner.withPropertyValues("agent.retrieval.lucene.path=" + file)
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.retrieval.lucene.path"));
	}

	@Test
	void invalidFusionSettingsFailNamingTheProperty() {
		this.runner.withPropertyValues("agent.retrieval.lucene.rrf-k=0")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.retrieval.lucene.rrf-k must be at least 1"));
		this.runner.withPropertyValues("agent.retrieval.lucene.candidates=0")
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageContaining("agent.retrieval.lucene.candidates must be at least 1"));
	}

	@Test
	void canBeDisabledOrReplacedOrLeftOutWithoutLucene() {
		this.runner.withPropertyValues("agent.retrieval.lucene.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DocumentIndex.class));
		this.runner.withClassLoader(new FilteredClassLoader("org.apache.lucene"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DocumentIndex.class));
		DocumentIndex own = LuceneDocumentIndex.builder().build();
		this.runner.withBean(DocumentIndex.class, () -> own)
			.run((context) -> assertThat(context).getBean(DocumentIndex.class).isSameAs(own));
	}

	private record ConstantModel(String name) implements EmbeddingModel {

		@Override
		public Mono<List<float[]>> embed(List<String> texts) {
			return Mono.just(texts.stream().map((text) -> new float[] { 1f, 0.5f }).toList());
		}

		@Override
		public int dimensions() {
			return 2;
		}

	}

	// the AgentConfigurationException in a startup failure's causes
	private static Throwable configurationFailure(Throwable failure) {
		for (Throwable ex = failure; ex != null; ex = ex.getCause()) {
			if (ex instanceof AgentConfigurationException) {
				return ex;
			}
		}
		throw new AssertionError("No AgentConfigurationException in the failure", failure);
	}

}
