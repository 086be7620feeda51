package dev.agcore.retrieval.lucene;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.retrieval.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

/**
 * How a {@link Document} is laid out in Lucene: stored id, title, summary, content and
 * metadata; the texts analyzed for BM25; each metadata entry indexed as an exact term for
 * filters; and the embedding as a cosine HNSW vector.
 */
final class LuceneDocuments {

	static final String ID = "id";

	static final String TITLE = "title";

	static final String SUMMARY = "summary";

	static final String CONTENT = "content";

	static final String METADATA = "metadata";

	static final String VECTOR = "vector";

	// metadata key k is indexed as the exact term of field "m.k"
	static final String METADATA_PREFIX = "m.";

	// Lucene's limit on one indexed term; longer metadata values are stored but not filterable
	private static final int MAX_TERM_BYTES = IndexWriter.MAX_TERM_LENGTH;

	private static final TypeReference<LinkedHashMap<String, String>> METADATA_TYPE = new TypeReference<>() {
	};

	private LuceneDocuments() {
	}

	static org.apache.lucene.document.Document toLucene(Document document, float @Nullable [] vector) {
		org.apache.lucene.document.Document lucene = new org.apache.lucene.document.Document();
		lucene.add(new StringField(ID, document.id(), Field.Store.YES));
		lucene.add(new TextField(TITLE, document.title(), Field.Store.YES));
		lucene.add(new TextField(SUMMARY, document.summary(), Field.Store.YES));
		lucene.add(new TextField(CONTENT, document.content(), Field.Store.YES));
		lucene.add(new StoredField(METADATA, AgentJson.mapper().writeValueAsString(document.metadata())));
		for (Map.Entry<String, String> entry : document.metadata().entrySet()) {
			if (entry.getValue().getBytes(StandardCharsets.UTF_8).length <= MAX_TERM_BYTES) {
				lucene.add(new StringField(METADATA_PREFIX + entry.getKey(), entry.getValue(), Field.Store.NO));
			}
		}
		if (vector != null) {
			lucene.add(new KnnFloatVectorField(VECTOR, vector, VectorSimilarityFunction.COSINE));
		}
		return lucene;
	}

	static Document fromLucene(org.apache.lucene.document.Document lucene) {
		String metadata = lucene.get(METADATA);
		Map<String, String> map = (metadata != null) ? AgentJson.mapper().readValue(metadata, METADATA_TYPE)
				: Map.of();
		return new Document(lucene.get(ID), lucene.get(TITLE), lucene.get(SUMMARY), lucene.get(CONTENT), map);
	}

	/**
	 * The text an embedding is made of: the non-blank title, summary and content.
	 * @param document the document
	 * @param maxChars the longest text to embed; models truncate anyway, and APIs reject
	 * inputs beyond their context
	 * @return the text, empty when the document has none
	 */
	static String embeddingText(Document document, int maxChars) {
		StringBuilder text = new StringBuilder();
		for (String part : new String[] { document.title(), document.summary(), document.content() }) {
			if (!part.isBlank()) {
				if (!text.isEmpty()) {
					text.append("\n\n");
				}
				text.append(part.strip());
			}
		}
		return (text.length() > maxChars) ? text.substring(0, maxChars) : text.toString();
	}

}
