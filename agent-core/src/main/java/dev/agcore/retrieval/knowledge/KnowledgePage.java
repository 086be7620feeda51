package dev.agcore.retrieval.knowledge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.KeywordRetriever;
import org.jspecify.annotations.Nullable;

/**
 * A page of a {@link KnowledgeStore}: what an agent can look up. Immutable.
 *
 * @param id unique within its store: 1 to {@value #MAX_ID_LENGTH} characters, no control
 * characters, no leading or trailing spaces; {@code guides/retry} for a Markdown file
 * @param title the title; empty when there is none
 * @param summary a sentence saying what the page is about; empty when there is none
 * @param content the text
 * @param tags labels, stripped, without blanks or duplicates
 * @param references the ids of related pages, or addresses
 * @param createdAt when the page was first stored; set by the store, {@code null} before
 * @param updatedAt when the page was last stored; set by the store, {@code null} before
 * @since 0.1.0
 */
public record KnowledgePage(String id, String title, String summary, String content, List<String> tags,
		List<String> references, @Nullable Instant createdAt, @Nullable Instant updatedAt) {

	/** Longest page id. */
	public static final int MAX_ID_LENGTH = 256;

	public KnowledgePage {
		Objects.requireNonNull(id, "'id' must not be null");
		checkId(id);
		title = (title != null) ? title : "";
		summary = (summary != null) ? summary : "";
		content = (content != null) ? content : "";
		tags = cleaned(tags);
		references = cleaned(references);
	}

	/**
	 * Create a page without tags or references.
	 * @param id the id
	 * @param title the title
	 * @param summary the summary
	 * @param content the content
	 * @return the page
	 */
	public static KnowledgePage of(String id, String title, String summary, String content) {
		return new KnowledgePage(id, title, summary, content, List.of(), List.of(), null, null);
	}

	public KnowledgePage withTags(List<String> tags) {
		return new KnowledgePage(this.id, this.title, this.summary, this.content, tags, this.references,
				this.createdAt, this.updatedAt);
	}

	public KnowledgePage withReferences(List<String> references) {
		return new KnowledgePage(this.id, this.title, this.summary, this.content, this.tags, references,
				this.createdAt, this.updatedAt);
	}

	public KnowledgePage withContent(String content) {
		return new KnowledgePage(this.id, this.title, this.summary, content, this.tags, this.references,
				this.createdAt, this.updatedAt);
	}

	/**
	 * Return the page with its timestamps.
	 * @param createdAt when it was first stored
	 * @param updatedAt when it was last stored
	 * @return the page
	 */
	public KnowledgePage withTimestamps(Instant createdAt, Instant updatedAt) {
		return new KnowledgePage(this.id, this.title, this.summary, this.content, this.tags, this.references,
				createdAt, updatedAt);
	}

	/**
	 * Return the page as a document for a {@link dev.agcore.retrieval.DocumentIndex}. Its
	 * metadata: {@code source} = {@code knowledge}, {@code namespace} = the store's name,
	 * {@code tags} = the tags joined with {@code ", "} (scored like the summary by the
	 * {@link KeywordRetriever}), and {@code tag:<tag>} = {@code true} for each tag, so a
	 * search can filter on one tag.
	 * @param namespace the name of the store
	 * @return the document
	 */
	public Document toDocument(String namespace) {
		Map<String, String> metadata = new LinkedHashMap<>();
		metadata.put("source", "knowledge");
		metadata.put("namespace", namespace);
		if (!this.tags.isEmpty()) {
			metadata.put(KeywordRetriever.TAGS, String.join(", ", this.tags));
		}
		for (String tag : this.tags) {
			metadata.put("tag:" + tag, "true");
		}
		return new Document(this.id, this.title, this.summary, this.content, metadata);
	}

	static void checkId(String id) {
		if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
			throw new IllegalArgumentException(
					"Page id must have 1 to " + MAX_ID_LENGTH + " characters, was " + id.length());
		}
		if (!id.equals(id.strip())) {
			throw new IllegalArgumentException("Page id '" + id + "' must not start or end with a space");
		}
		if (id.chars().anyMatch(Character::isISOControl)) {
			throw new IllegalArgumentException("Page id '" + id.replaceAll("\\p{Cntrl}", "?")
					+ "' must not contain control characters");
		}
	}

	private static List<String> cleaned(@Nullable List<String> values) {
		if (values == null) {
			return List.of();
		}
		List<String> cleaned = new ArrayList<>(values.size());
		for (String value : values) {
			String stripped = (value != null) ? value.strip() : "";
			if (!stripped.isEmpty() && !cleaned.contains(stripped)) {
				cleaned.add(stripped);
			}
		}
		return List.copyOf(cleaned);
	}

}
