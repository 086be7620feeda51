package dev.agcore.retrieval;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code retrieve} tool: lets a model search a {@link Retriever}, such as a
 * knowledge store, with {@code {"query": "...", "top_k": 3}}. It answers with JSON:
 * <pre>
 * {"query": "...", "results": [{"id": "...", "title": "...", "summary": "...",
 *   "score": 0.62, "content": "..."}]}
 * </pre>
 * best first; an empty {@code results} comes with a {@code message} saying so. The
 * output is bounded: at most {@code maxTopK} results, titles, summaries and contents cut
 * to their limits (a cut content ends with {@code …} and says
 * {@code "truncated": true}). Read-only, in category {@code knowledge}.
 *
 * @since 0.1.0
 */
public final class RetrieveTool implements ToolCallback {

	/** The tool's name. */
	public static final String NAME = "retrieve";

	/** The tool's category, by which agents can select it ({@code group:knowledge}). */
	public static final String CATEGORY = "knowledge";

	/** Longest query accepted, in characters. */
	public static final int MAX_QUERY_LENGTH = 1000;

	static final int MAX_TITLE_LENGTH = 200;

	static final int MAX_SUMMARY_LENGTH = 500;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final Retriever retriever;

	private final Options options;

	private final ToolSpec spec;

	/**
	 * How the tool searches and bounds its answer.
	 *
	 * @param defaultTopK results when the model does not say, at least 1
	 * @param maxTopK the most results the model may ask for, at least {@code defaultTopK}
	 * @param minScore results scoring below it are left out
	 * @param maxContentLength longest content of one result, in characters, at least 1
	 * @param filter metadata every result must have
	 */
	public record Options(int defaultTopK, int maxTopK, double minScore, int maxContentLength,
			Map<String, String> filter) {

		/** 5 results, at most 20, minimum score 0.1, 1500 characters of content each. */
		public static final Options DEFAULTS = new Options(5, 20, 0.1, 1500, Map.of());

		public Options {
			if (defaultTopK < 1) {
				throw new IllegalArgumentException("'defaultTopK' must be at least 1, was " + defaultTopK);
			}
			if (maxTopK < defaultTopK) {
				throw new IllegalArgumentException(
						"'maxTopK' (" + maxTopK + ") must be at least 'defaultTopK' (" + defaultTopK + ")");
			}
			if (maxContentLength < 1) {
				throw new IllegalArgumentException("'maxContentLength' must be at least 1, was " + maxContentLength);
			}
			filter = Map.copyOf(filter);
		}

	}

	/**
	 * Create the tool with {@link Options#DEFAULTS}.
	 * @param retriever what it searches
	 */
	public RetrieveTool(Retriever retriever) {
		this(retriever, Options.DEFAULTS);
	}

	/**
	 * Create the tool.
	 * @param retriever what it searches
	 * @param options how it searches and bounds its answer
	 */
	public RetrieveTool(Retriever retriever, Options options) {
		this.retriever = Objects.requireNonNull(retriever, "'retriever' must not be null");
		this.options = Objects.requireNonNull(options, "'options' must not be null");
		this.spec = new ToolSpec(NAME,
				"Search the knowledge base for pages relevant to a query and return the best ones with their "
						+ "content. Use keywords or a short question; use it before answering questions the "
						+ "knowledge base may cover.",
				schema(options));
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public ToolMetadata metadata() {
		return new ToolMetadata(ToolPermission.READ_ONLY, CATEGORY, null, false, Set.of());
	}

	@Override
	public String call(String arguments, ToolContext context) {
		ObjectNode input = parse(arguments);
		String query = query(input);
		int topK = topK(input);
		SearchRequest request = new SearchRequest(query, topK, this.options.minScore(), this.options.filter());
		List<ScoredDocument> found;
		try {
			found = this.retriever.retrieve(request).block(TIMEOUT);
		}
		catch (RuntimeException ex) {
			// the model sees this message; the cause goes to the logs with the tool error
			throw new ToolException("Searching the knowledge base failed: " + ex.getMessage(), ex);
		}
		return answer(query, (found != null) ? found : List.of(), topK);
	}

	private String answer(String query, List<ScoredDocument> found, int topK) {
		ObjectNode answer = AgentJson.mapper().createObjectNode();
		answer.put("query", query);
		ArrayNode results = answer.putArray("results");
		for (ScoredDocument scored : found.subList(0, Math.min(topK, found.size()))) {
			Document document = scored.document();
			ObjectNode result = results.addObject();
			result.put("id", cut(document.id(), MAX_TITLE_LENGTH));
			result.put("title", cut(document.title(), MAX_TITLE_LENGTH));
			result.put("summary", cut(document.summary(), MAX_SUMMARY_LENGTH));
			result.put("score", Math.round(scored.score() * 1000) / 1000.0);
			String content = cut(document.content(), this.options.maxContentLength());
			result.put("content", content);
			if (content.length() < document.content().length()) {
				result.put("truncated", true);
			}
		}
		if (results.isEmpty()) {
			answer.put("message", "No page matches this query. Try other or fewer keywords.");
		}
		return answer.toString();
	}

	private static ObjectNode parse(String arguments) {
		JsonNode json;
		try {
			json = AgentJson.mapper().readTree(arguments);
		}
		catch (JacksonException ex) {
			throw new ToolArgumentsException("The arguments are not a JSON object");
		}
		if (json == null || !json.isObject()) {
			throw new ToolArgumentsException("The arguments are not a JSON object");
		}
		return (ObjectNode) json;
	}

	private static String query(ObjectNode input) {
		JsonNode query = input.get("query");
		if (query == null || !query.isString() || query.asString().isBlank()) {
			throw new ToolArgumentsException("'query' is required: the text to search for");
		}
		String text = query.asString().strip();
		if (text.length() > MAX_QUERY_LENGTH) {
			throw new ToolArgumentsException("'query' is longer than " + MAX_QUERY_LENGTH + " characters");
		}
		return text;
	}

	private int topK(ObjectNode input) {
		JsonNode topK = input.get("top_k");
		if (topK == null || topK.isNull()) {
			return this.options.defaultTopK();
		}
		if (!topK.canConvertToInt() || !topK.isIntegralNumber()) {
			throw new ToolArgumentsException("'top_k' must be a whole number");
		}
		int value = topK.asInt();
		if (value < 1 || value > this.options.maxTopK()) {
			throw new ToolArgumentsException("'top_k' must be between 1 and " + this.options.maxTopK());
		}
		return value;
	}

	private static ObjectNode schema(Options options) {
		ObjectNode schema = AgentJson.mapper().createObjectNode();
		schema.put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		properties.putObject("query").put("type", "string").put("description", "What to search for").put("maxLength",
				MAX_QUERY_LENGTH);
		properties.putObject("top_k")
			.put("type", "integer")
			.put("description", "How many pages to return, " + options.defaultTopK() + " if not given")
			.put("minimum", 1)
			.put("maximum", options.maxTopK());
		schema.putArray("required").add("query");
		schema.put("additionalProperties", false);
		return schema;
	}

	static String cut(String text, int maxLength) {
		if (text.length() <= maxLength) {
			return text;
		}
		int end = maxLength - 1;
		if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		return text.substring(0, Math.max(end, 0)) + "…";
	}

	@Override
	public String source() {
		return getClass().getName() + " over " + this.retriever;
	}

	@Override
	public String toString() {
		return "Tool '" + NAME + "' over " + this.retriever;
	}

}
