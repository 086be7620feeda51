package dev.agcore.autoconfigure.retrieval.lucene;

import java.io.UncheckedIOException;
import java.nio.file.Path;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.embedding.EmbeddingModelAutoConfiguration;
import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;
import org.apache.lucene.index.IndexWriter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for a {@link LuceneDocumentIndex}
 * when Lucene is on the class path and the application defines no other
 * {@link DocumentIndex}: in memory, or in {@code agent.retrieval.lucene.path}; hybrid when
 * an {@link EmbeddingModel} exists, keyword-only otherwise. Closed on shutdown.
 * <p>
 * An index in a directory is opened at startup, so that a directory it cannot use, or
 * one built with another embedding model, fails startup naming the property. An index in
 * memory holds nothing until something adds to it, so it is opened when a bean first
 * asks for it (Lucene's codecs and some 450 classes are otherwise loaded by every
 * application with the starter); its settings are checked at startup all the same.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = EmbeddingModelAutoConfiguration.class)
@ConditionalOnClass(IndexWriter.class)
@ConditionalOnBooleanProperty(name = "agent.retrieval.lucene.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LuceneIndexProperties.class)
public final class LuceneIndexAutoConfiguration {

	private static final String PREFIX = "agent.retrieval.lucene";

	LuceneIndexAutoConfiguration(LuceneIndexProperties properties) {
		// at startup, even while an index in memory is not opened yet
		checkFusion(properties);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = PREFIX, name = "path")
	static class DirectoryIndexConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(DocumentIndex.class)
		LuceneDocumentIndex luceneDocumentIndex(LuceneIndexProperties properties,
				ObjectProvider<EmbeddingModel> embeddingModel) {
			return index(properties, embeddingModel);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(NoIndexPathCondition.class)
	static class InMemoryIndexConfiguration {

		@Bean(destroyMethod = "close")
		@Lazy
		@ConditionalOnMissingBean(DocumentIndex.class)
		LuceneDocumentIndex luceneDocumentIndex(LuceneIndexProperties properties,
				ObjectProvider<EmbeddingModel> embeddingModel) {
			return index(properties, embeddingModel);
		}

	}

	private static void checkFusion(LuceneIndexProperties properties) {
		if (properties.getRrfK() < 1) {
			throw new AgentConfigurationException(
					"agent.retrieval.lucene.rrf-k must be at least 1 (was " + properties.getRrfK() + ")",
					"Set agent.retrieval.lucene.rrf-k to a positive number (60 is usual), or remove it.");
		}
		if (properties.getCandidates() < 1) {
			throw new AgentConfigurationException(
					"agent.retrieval.lucene.candidates must be at least 1 (was " + properties.getCandidates() + ")",
					"Set agent.retrieval.lucene.candidates to a positive number, or remove it.");
		}
	}

	private static LuceneDocumentIndex index(LuceneIndexProperties properties,
			ObjectProvider<EmbeddingModel> embeddingModel) {
		LuceneDocumentIndex.Builder builder = LuceneDocumentIndex.builder()
			.embeddingModel(embeddingModel.getIfUnique())
			.rrfK(properties.getRrfK())
			.candidates(properties.getCandidates());
		Path path = properties.getPath();
		if (path != null) {
			builder.path(path);
		}
		try {
			return builder.build();
		}
		catch (UncheckedIOException ex) {
			throw new AgentConfigurationException(
					"agent.retrieval.lucene.path: " + ex.getMessage(),
					"Point agent.retrieval.lucene.path at a writable directory that no other process holds open, "
							+ "or remove it to keep the index in memory.",
					ex);
		}
		catch (IllegalStateException ex) {
			throw new AgentConfigurationException(ex.getMessage() + " (agent.retrieval.lucene.path)",
					"Set agent.embedding.* back to the model the index was built with, or delete the directory in "
							+ "agent.retrieval.lucene.path to rebuild the index with the new model.",
					ex);
		}
	}

	/** No {@code agent.retrieval.lucene.path}: the index lives in memory. */
	static final class NoIndexPathCondition extends NoneNestedConditions {

		NoIndexPathCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(prefix = PREFIX, name = "path")
		static class IndexPath {

		}

	}

}
