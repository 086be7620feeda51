package dev.agcore.autoconfigure.retrieval;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the knowledge store and the {@code retrieve} tool. The tool's
 * defaults are those of {@link dev.agcore.retrieval.RetrieveTool.Options#DEFAULTS}, written
 * out so that the IDE metadata shows them.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "agent.knowledge", ignoreUnknownFields = false)
public class KnowledgeProperties {

	/**
	 * Folder of Markdown files loaded into the knowledge store at startup, its
	 * sub-folders included: a file system path (./knowledge, file:/srv/kb) or a
	 * classpath location (classpath:knowledge). No knowledge store is created when not
	 * set, unless the application defines one.
	 */
	private @Nullable String path;

	/**
	 * Name of the knowledge store; its pages are kept in the key-value store under the
	 * namespace knowledge:<name>.
	 */
	private String namespace = "default";

	/**
	 * How the knowledge store is searched: 'keyword' (the keyword retriever: Dice
	 * similarity of title, summary and content, scores from 0 to 1) or 'lucene' (the
	 * Lucene index of agent.retrieval.lucene: BM25, fused with vector search when an
	 * embedding model is configured).
	 */
	private IndexType index = IndexType.KEYWORD;

	/**
	 * The retrieve tool, which lets agents search the knowledge store.
	 */
	private final Tool tool = new Tool();

	public IndexType getIndex() {
		return this.index;
	}

	public void setIndex(IndexType index) {
		this.index = index;
	}

	/** How the knowledge store is searched. */
	public enum IndexType {

		/** The keyword retriever, in memory. */
		KEYWORD,

		/** The application's Lucene index: BM25, and vectors with an embedding model. */
		LUCENE

	}

	public @Nullable String getPath() {
		return this.path;
	}

	public void setPath(@Nullable String path) {
		this.path = path;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public Tool getTool() {
		return this.tool;
	}

	/**
	 * Settings of the {@code retrieve} tool.
	 */
	public static class Tool {

		/**
		 * Whether a knowledge store gives agents the retrieve tool. Agents with a tools
		 * list name it there: retrieve, or group:knowledge.
		 */
		private boolean enabled = true;

		/**
		 * Pages returned when the model does not ask for a number.
		 */
		private int topK = 5;

		/**
		 * Most pages the model may ask for in one call.
		 */
		private int maxTopK = 20;

		/**
		 * Pages scoring below this are left out. With the keyword index scores lie between 0
		 * and 1 (default 0.1); with the Lucene index they are BM25 scores, or fused ranks
		 * of at most 2/(rrf-k + 1) with an embedding model (default 0).
		 */
		private @Nullable Double minScore;

		/**
		 * Longest content of one page in the tool's answer, in characters; longer
		 * content is cut.
		 */
		private int maxContentLength = 1500;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getTopK() {
			return this.topK;
		}

		public void setTopK(int topK) {
			this.topK = topK;
		}

		public int getMaxTopK() {
			return this.maxTopK;
		}

		public void setMaxTopK(int maxTopK) {
			this.maxTopK = maxTopK;
		}

		public @Nullable Double getMinScore() {
			return this.minScore;
		}

		public void setMinScore(@Nullable Double minScore) {
			this.minScore = minScore;
		}

		public int getMaxContentLength() {
			return this.maxContentLength;
		}

		public void setMaxContentLength(int maxContentLength) {
			this.maxContentLength = maxContentLength;
		}

	}

}
