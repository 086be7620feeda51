package dev.agcore.autoconfigure.tool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.agcore.json.AgentJson;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal {@code retrieve} tool over the application's {@link Retriever}, given to
 * agents whose memory tools are enabled when no tool of that name exists: {@code {query,
 * topK?}} returns the best documents as a JSON array, each document's content and the
 * whole result bounded.
 */
final class RetrieveTool implements ToolCallback {

	static final String NAME = "retrieve";

	static final int MAX_TOP_K = 20;

	static final int MAX_CONTENT_CHARS = 2_000;

	static final int MAX_RESULT_CHARS = 16_000;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final Retriever retriever;

	private final ToolSpec spec;

	RetrieveTool(Retriever retriever) {
		this.retriever = Objects.requireNonNull(retriever, "'retriever' must not be null");
		ObjectNode schema = AgentJson.mapper().createObjectNode().put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		properties.putObject("query").put("type", "string").put("description", "What to look for");
		properties.putObject("topK").put("type", "integer").put("minimum", 1).put("maximum", MAX_TOP_K)
			.put("description", "The most documents returned, 5 by default");
		schema.putArray("required").add("query");
		this.spec = new ToolSpec(NAME, "Search the knowledge base for documents relevant to a query", schema);
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public ToolMetadata metadata() {
		return ToolMetadata.DEFAULT.withPermission(ToolPermission.READ_ONLY);
	}

	@Override
	public String call(String arguments, ToolContext context) {
		JsonNode parsed;
		try {
			parsed = AgentJson.mapper().readTree(arguments.isBlank() ? "{}" : arguments);
		}
		catch (JacksonException ex) {
			throw new ToolArgumentsException("arguments must be a JSON object", ex);
		}
		JsonNode query = parsed.get("query");
		if (query == null || !query.isString() || query.asString().isBlank()) {
			throw new ToolArgumentsException("'query' must be a non-empty string");
		}
		JsonNode topK = parsed.get("topK");
		int k = 5;
		if (topK != null && !topK.isNull()) {
			if (!topK.isIntegralNumber() || topK.asInt() < 1 || topK.asInt() > MAX_TOP_K) {
				throw new ToolArgumentsException("'topK' must be an integer from 1 to " + MAX_TOP_K);
			}
			k = topK.asInt();
		}
		List<ScoredDocument> found = this.retriever.retrieve(SearchRequest.of(query.asString()).withTopK(k))
			.block(TIMEOUT);
		if (found == null || found.isEmpty()) {
			return "No documents match.";
		}
		ArrayNode array = AgentJson.mapper().createArrayNode();
		int length = 2;
		for (ScoredDocument scored : found) {
			String content = scored.document().content();
			ObjectNode node = AgentJson.mapper().createObjectNode()
				.put("id", scored.document().id())
				.put("title", scored.document().title())
				.put("score", scored.score())
				.put("content", (content.length() > MAX_CONTENT_CHARS) ? content.substring(0, MAX_CONTENT_CHARS) + "…"
						: content);
			int size = node.toString().length() + 1;
			if (length + size > MAX_RESULT_CHARS) {
				break;
			}
			array.add(node);
			length += size;
		}
		return array.toString();
	}

	@Override
	public String source() {
		return "agent.agents.<name>.memory.tools (Retriever bean)";
	}

}
