package dev.agcore.model;

/**
 * What a {@link ChatModel} can do natively; see {@link ChatModel#capabilities()}.
 */
public enum ModelCapability {

	/** Tool (function) calling. */
	TOOLS,
	/** Streamed answers. */
	STREAMING,
	/** A JSON schema sent as a native option ({@link ResponseFormat}). */
	STRUCTURED_OUTPUT,
	/** Reasoning (thinking) content kept apart from the answer. */
	REASONING,
	/** Images in user messages. */
	IMAGES,
	/** PDF documents in user messages. */
	PDF,
	/** Prompt caching with cache tokens in the usage. */
	PROMPT_CACHING

}
