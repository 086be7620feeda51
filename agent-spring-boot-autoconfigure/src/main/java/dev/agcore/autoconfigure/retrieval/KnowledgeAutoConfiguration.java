package dev.agcore.autoconfigure.retrieval;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.support.PropertyChecks;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.retrieval.DocumentIndex;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.RetrieveTool;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.KnowledgeStore;
import dev.agcore.retrieval.knowledge.MarkdownKnowledgeLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for knowledge:
 * <ul>
 * <li>when {@code agent.knowledge.path} is set, a {@link KnowledgeStore}, searched by a
 * {@link KeywordRetriever} or, with {@code agent.knowledge.index=lucene}, by the Lucene
 * index, kept in the application's {@link KeyValueStore}, holding the
 * pages stored there before and the Markdown files of the path, loaded at startup;</li>
 * <li>when there is a {@link KnowledgeStore} bean, the auto-configured one or the
 * application's, the {@code retrieve} tool ({@link RetrieveTool}), which agents get like
 * any tool bean: all agents without a {@code tools} list, and those that list
 * {@code retrieve} or {@code group:knowledge}.</li>
 * </ul>
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ConversationStoreAutoConfiguration.class,
		afterName = "dev.agcore.autoconfigure.retrieval.lucene.LuceneIndexAutoConfiguration")
@EnableConfigurationProperties(KnowledgeProperties.class)
public final class KnowledgeAutoConfiguration {

	private static final String LUCENE_INDEX = "dev.agcore.retrieval.lucene.LuceneDocumentIndex";

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(1);

	private static final Logger logger = LoggerFactory.getLogger(KnowledgeAutoConfiguration.class);

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "agent.knowledge", name = "path")
	static class KnowledgeStoreConfiguration {

		@Bean
		@ConditionalOnMissingBean
		KnowledgeStore knowledgeStore(KeyValueStore keyValueStore, KnowledgeProperties properties,
				ResourceLoader resourceLoader, ObjectProvider<DocumentIndex> indexes) {
			String namespace = properties.getNamespace();
			if (namespace == null || namespace.isBlank()) {
				throw new AgentConfigurationException("agent.knowledge.namespace is empty",
						"Set agent.knowledge.namespace to a name such as docs, or remove it to use 'default'.");
			}
			String path = properties.getPath();
			MarkdownKnowledgeLoader.Result loaded = KnowledgeFolder.load((path != null) ? path : "", resourceLoader);
			KnowledgeStore store = new KnowledgeStore(keyValueStore, namespace.strip(), index(properties, indexes),
					Clock.systemUTC());
			// pages a persistent store kept from earlier runs, then the files over them
			store.rebuildIndex().block(STARTUP_TIMEOUT);
			Flux.fromIterable(loaded.pages()).concatMap(store::add).then().block(STARTUP_TIMEOUT);
			for (MarkdownKnowledgeLoader.Problem problem : loaded.problems()) {
				logger.warn("Knowledge file {} was not loaded: {}", problem.path(), problem.message());
			}
			logger.info("Knowledge store '{}' has {} pages, {} of them loaded from {}", store.name(),
					store.index().size(), loaded.pages().size(), path);
			return store;
		}

	}

	private static DocumentIndex index(KnowledgeProperties properties, ObjectProvider<DocumentIndex> indexes) {
		if (properties.getIndex() == KnowledgeProperties.IndexType.KEYWORD) {
			return new KeywordRetriever();
		}
		// the Lucene index bean, found by its name so that this class does not need Lucene
		return indexes.orderedStream()
			.filter((index) -> index.getClass().getName().equals(LUCENE_INDEX))
			.findFirst()
			.orElseThrow(() -> new AgentConfigurationException(
					"agent.knowledge.index is 'lucene' but there is no Lucene index",
					"Add org.apache.lucene:lucene-core and lucene-analysis-common (the starter brings them) and "
							+ "leave agent.retrieval.lucene.enabled on, or set agent.knowledge.index to 'keyword'."));
	}

	// member classes are processed first, so the store above is seen here
	@Bean
	@ConditionalOnBean(KnowledgeStore.class)
	@ConditionalOnBooleanProperty(name = "agent.knowledge.tool.enabled", matchIfMissing = true)
	@ConditionalOnMissingBean(name = "retrieveTool")
	RetrieveTool retrieveTool(KnowledgeStore knowledgeStore, KnowledgeProperties properties) {
		return new RetrieveTool(knowledgeStore, options(properties.getTool(), properties.getIndex()));
	}

	private static RetrieveTool.Options options(KnowledgeProperties.Tool tool, KnowledgeProperties.IndexType index) {
		PropertyChecks.atLeastOne("agent.knowledge.tool.top-k", tool.getTopK());
		PropertyChecks.atLeastOne("agent.knowledge.tool.max-content-length", tool.getMaxContentLength());
		if (tool.getMaxTopK() < tool.getTopK()) {
			throw new AgentConfigurationException(
					"agent.knowledge.tool.max-top-k (" + tool.getMaxTopK()
							+ ") is smaller than agent.knowledge.tool.top-k (" + tool.getTopK() + ")",
					"Set agent.knowledge.tool.max-top-k to at least agent.knowledge.tool.top-k.");
		}
		double defaultMinScore = (index == KnowledgeProperties.IndexType.KEYWORD) ? 0.1 : 0;
		double minScore = (tool.getMinScore() != null) ? tool.getMinScore() : defaultMinScore;
		// keyword scores lie between 0 and 1; Lucene's are BM25 or fused ranks, of no fixed bound
		double maxMinScore = (index == KnowledgeProperties.IndexType.KEYWORD) ? 1 : Double.MAX_VALUE;
		if (!(minScore >= 0 && minScore <= maxMinScore)) {
			String range = (maxMinScore == 1) ? "between 0 and 1" : "at least 0";
			throw new AgentConfigurationException(
					"agent.knowledge.tool.min-score must be " + range + " (was " + minScore + ")",
					"Set agent.knowledge.tool.min-score " + range + ", or remove it to use " + defaultMinScore + ".");
		}
		return new RetrieveTool.Options(tool.getTopK(), tool.getMaxTopK(), minScore,
				tool.getMaxContentLength(), Map.of());
	}

}
