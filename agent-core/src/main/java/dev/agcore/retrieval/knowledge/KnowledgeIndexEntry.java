package dev.agcore.retrieval.knowledge;

import java.util.List;

/**
 * A line of the index of a {@link KnowledgeStore}: what a page is, without its content.
 *
 * @param id the page id
 * @param title the title
 * @param summary the summary
 * @param tags the tags
 * @since 0.1.0
 */
public record KnowledgeIndexEntry(String id, String title, String summary, List<String> tags) {

	public KnowledgeIndexEntry {
		tags = List.copyOf(tags);
	}

	static KnowledgeIndexEntry of(KnowledgePage page) {
		return new KnowledgeIndexEntry(page.id(), page.title(), page.summary(), page.tags());
	}

}
