package dev.agcore.tool.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.KeyValueNamespace;
import dev.agcore.memory.MemoryItem;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code remember} and {@code recall} tools over the agent's long-term memory
 * ({@link ToolContext#store()}), in the namespace of a {@link MemoryScope}. What the model
 * writes and reads is bounded: keys, values and listings have a maximum size.
 */
public final class MemoryTools {

	/** The longest key. */
	public static final int MAX_KEY_LENGTH = 200;

	/** The most characters of a value or of its metadata, as JSON. */
	public static final int MAX_VALUE_CHARS = 10_000;

	/** The most items one recall returns. */
	public static final int MAX_RECALL_ITEMS = 50;

	/** The most characters of one recall's result. */
	public static final int MAX_RECALL_CHARS = 16_000;

	/** The most items a recall by prefix or query looks at, newest first. */
	static final int MAX_SCANNED = 1_000;

	private static final int DEFAULT_RECALL_ITEMS = 20;

	private MemoryTools() {
	}

	/**
	 * Return both tools.
	 * @param scope whose memory they use
	 * @return {@code remember} and {@code recall}
	 */
	public static List<ToolCallback> of(MemoryScope scope) {
		return List.of(remember(scope), recall(scope));
	}

	/**
	 * Return the {@code remember} tool: {@code {key, value, metadata?}} stores a value.
	 * @param scope whose memory it writes
	 * @return the tool
	 */
	public static ToolCallback remember(MemoryScope scope) {
		Objects.requireNonNull(scope, "'scope' must not be null");
		ObjectNode schema = objectSchema();
		ObjectNode properties = (ObjectNode) schema.get("properties");
		properties.putObject("key").put("type", "string").put("maxLength", MAX_KEY_LENGTH)
			.put("description", "A short name for what to remember, e.g. 'preferred-language'");
		properties.putObject("value").put("description", "What to remember: text or any JSON value");
		properties.putObject("metadata").put("type", "object")
			.put("description", "Optional attributes of the value, e.g. its source");
		schema.putArray("required").add("key").add("value");
		String description = "Remember a fact for later conversations" + describe(scope)
				+ ". Replaces what was remembered under the same key.";
		return new Tool(new ToolSpec("remember", description, schema), ToolPermission.WRITE, (arguments, context) -> {
			String key = key(arguments.get("key"));
			JsonNode value = arguments.get("value");
			if (value == null || value.isNull()) {
				throw new ToolArgumentsException("'value' is required");
			}
			bounded(value, "value");
			JsonNode metadata = arguments.get("metadata");
			if (metadata != null && !metadata.isNull()) {
				if (!metadata.isObject()) {
					throw new ToolArgumentsException("'metadata' must be a JSON object");
				}
				bounded(metadata, "metadata");
			}
			KeyValueNamespace memory = context.store().namespace(scope.namespace(context));
			if (metadata != null && !metadata.isNull()) {
				memory.put(key, value, metadata);
			}
			else {
				memory.put(key, value);
			}
			return "Remembered '" + key + "'.";
		});
	}

	/**
	 * Return the {@code recall} tool: {@code {key}} reads one value; {@code {prefix?,
	 * query?, limit?}} lists values, newest first, whose key starts with the prefix and
	 * whose key or value contains the query, ignoring case.
	 * @param scope whose memory it reads
	 * @return the tool
	 */
	public static ToolCallback recall(MemoryScope scope) {
		Objects.requireNonNull(scope, "'scope' must not be null");
		ObjectNode schema = objectSchema();
		ObjectNode properties = (ObjectNode) schema.get("properties");
		properties.putObject("key").put("type", "string").put("description", "The key of one value to read");
		properties.putObject("prefix").put("type", "string")
			.put("description", "List the values whose key starts with this");
		properties.putObject("query").put("type", "string")
			.put("description", "List the values whose key or value contains this text");
		properties.putObject("limit").put("type", "integer").put("minimum", 1).put("maximum", MAX_RECALL_ITEMS)
			.put("description", "The most values listed, " + DEFAULT_RECALL_ITEMS + " by default");
		String description = "Recall what was remembered" + describe(scope)
				+ ": one value by key, or the newest values matching a key prefix or a text.";
		return new Tool(new ToolSpec("recall", description, schema), ToolPermission.READ_ONLY, (arguments, context) -> {
			KeyValueNamespace memory = context.store().namespace(scope.namespace(context));
			JsonNode key = arguments.get("key");
			if (key != null && !key.isNull()) {
				String name = key(key);
				Optional<MemoryItem> item = memory.find(name);
				return item.map((found) -> render(List.of(found))).orElse("Nothing remembered under '" + name + "'.");
			}
			String prefix = text(arguments.get("prefix"), "prefix");
			String query = text(arguments.get("query"), "query").toLowerCase(Locale.ROOT);
			int limit = limit(arguments.get("limit"));
			List<MemoryItem> items = new ArrayList<>(memory.list(ItemQuery.prefix(prefix).page(0, ItemQuery.MAX_LIMIT)));
			items.sort(Comparator.comparing(MemoryItem::updatedAt).reversed());
			List<MemoryItem> found = items.stream()
				.limit(MAX_SCANNED)
				.filter((item) -> query.isEmpty() || item.key().toLowerCase(Locale.ROOT).contains(query)
						|| item.value().toString().toLowerCase(Locale.ROOT).contains(query))
				.limit(limit)
				.toList();
			return found.isEmpty() ? "Nothing remembered matches." : render(found);
		});
	}

	private static String describe(MemoryScope scope) {
		return switch (scope) {
			case USER -> " about this user";
			case SESSION -> " in this conversation";
			case AGENT -> ", shared by all conversations";
		};
	}

	/** Items as a JSON array, cut to {@link #MAX_RECALL_CHARS}; says how many were left out. */
	private static String render(List<MemoryItem> items) {
		ArrayNode array = AgentJson.mapper().createArrayNode();
		int length = 2;
		int left = 0;
		for (MemoryItem item : items) {
			ObjectNode node = AgentJson.mapper().createObjectNode();
			node.put("key", item.key());
			node.set("value", item.value());
			if (!item.metadata().isEmpty()) {
				node.set("metadata", item.metadata());
			}
			node.put("updatedAt", item.updatedAt().toString());
			int size = node.toString().length() + 1;
			if (length + size > MAX_RECALL_CHARS) {
				left = items.size() - array.size();
				break;
			}
			array.add(node);
			length += size;
		}
		String json = array.toString();
		return (left == 0) ? json : json + "\n(" + left + " more left out: ask for a narrower prefix or query)";
	}

	private static String key(@Nullable JsonNode node) {
		if (node == null || !node.isString() || node.asString().isBlank()) {
			throw new ToolArgumentsException("'key' must be a non-empty string");
		}
		String key = node.asString().strip();
		if (key.length() > MAX_KEY_LENGTH) {
			throw new ToolArgumentsException("'key' must be at most " + MAX_KEY_LENGTH + " characters");
		}
		return key;
	}

	private static String text(@Nullable JsonNode node, String name) {
		if (node == null || node.isNull()) {
			return "";
		}
		if (!node.isString()) {
			throw new ToolArgumentsException("'" + name + "' must be a string");
		}
		return node.asString();
	}

	private static int limit(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return DEFAULT_RECALL_ITEMS;
		}
		if (!node.isIntegralNumber() || node.asInt() < 1 || node.asInt() > MAX_RECALL_ITEMS) {
			throw new ToolArgumentsException("'limit' must be an integer from 1 to " + MAX_RECALL_ITEMS);
		}
		return node.asInt();
	}

	private static void bounded(JsonNode node, String name) {
		if (node.toString().length() > MAX_VALUE_CHARS) {
			throw new ToolArgumentsException(
					"'" + name + "' must be at most " + MAX_VALUE_CHARS + " characters as JSON; remember less");
		}
	}

	private static ObjectNode objectSchema() {
		ObjectNode schema = AgentJson.mapper().createObjectNode().put("type", "object");
		schema.putObject("properties");
		return schema;
	}

	private interface Body {

		String apply(ObjectNode arguments, ToolContext context);

	}

	private record Tool(ToolSpec spec, ToolPermission permission, Body body) implements ToolCallback {

		@Override
		public String call(String arguments, ToolContext context) {
			JsonNode parsed;
			try {
				parsed = AgentJson.mapper().readTree(arguments.isBlank() ? "{}" : arguments);
			}
			catch (JacksonException ex) {
				throw new ToolArgumentsException("arguments must be a JSON object", ex);
			}
			if (!(parsed instanceof ObjectNode object)) {
				throw new ToolArgumentsException("arguments must be a JSON object");
			}
			return this.body.apply(object, context);
		}

		@Override
		public ToolMetadata metadata() {
			return ToolMetadata.DEFAULT.withPermission(this.permission);
		}

		@Override
		public String source() {
			return MemoryTools.class.getName();
		}

	}

}
