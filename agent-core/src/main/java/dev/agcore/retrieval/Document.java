package dev.agcore.retrieval;

import java.util.Map;
import java.util.Objects;

/**
 * A piece of knowledge that can be retrieved: a knowledge page, a remembered fact, a chunk
 * of a file. Immutable.
 *
 * @param id unique within its index
 * @param title a title, weighted most in keyword scoring; empty when there is none
 * @param summary a one-sentence summary, weighted next; empty when there is none
 * @param content the text
 * @param metadata string attributes that searches can filter on (for example
 * {@code namespace}, {@code source}, {@code tag})
 * @since 0.1.0
 */
public record Document(String id, String title, String summary, String content, Map<String, String> metadata) {

	public Document {
		Objects.requireNonNull(id, "'id' must not be null");
		if (id.isEmpty()) {
			throw new IllegalArgumentException("'id' must not be empty");
		}
		title = (title != null) ? title : "";
		summary = (summary != null) ? summary : "";
		content = (content != null) ? content : "";
		metadata = Map.copyOf(metadata);
	}

	/**
	 * Create a document with only an id and content.
	 * @param id the id
	 * @param content the content
	 * @return the document
	 */
	public static Document of(String id, String content) {
		return new Document(id, "", "", content, Map.of());
	}

}
