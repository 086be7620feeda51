package dev.agcore.retrieval;

import java.util.Objects;

/**
 * A document found by a search, with its score. Scores are comparable only within one
 * result list: each retriever scores on its own scale.
 *
 * @param document the document
 * @param score the score, higher is better
 * @since 0.1.0
 */
public record ScoredDocument(Document document, double score) {

	public ScoredDocument {
		Objects.requireNonNull(document, "'document' must not be null");
	}

}
