package dev.agcore.retrieval.knowledge;

import dev.agcore.AgentException;

/**
 * A knowledge page could not be found, read or written.
 *
 * @since 0.1.0
 */
public class KnowledgeStoreException extends AgentException {

	public KnowledgeStoreException(String message) {
		super(message);
	}

	public KnowledgeStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
