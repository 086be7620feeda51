package dev.agcore.retrieval.knowledge;

/**
 * An update named a page the store does not have.
 *
 * @since 0.1.0
 */
public class KnowledgePageNotFoundException extends KnowledgeStoreException {

	private final String pageId;

	public KnowledgePageNotFoundException(String namespace, String pageId) {
		super("Knowledge store '" + namespace + "' has no page '" + pageId + "'");
		this.pageId = pageId;
	}

	/**
	 * Return the id of the missing page.
	 * @return the id
	 */
	public String pageId() {
		return this.pageId;
	}

}
