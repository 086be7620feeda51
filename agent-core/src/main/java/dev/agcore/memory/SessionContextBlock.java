package dev.agcore.memory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Renders a session's memory as the {@code <session-context>} block appended to the system
 * prompt: one {@code key: value} line per item, oldest first. Values are what tools wrote,
 * so the block is bounded: a long value is cut, and items beyond the total size or count
 * are left out; the block says so when it is cut. Keys starting with {@value #PRIVATE_PREFIX}
 * are state a tool or middleware keeps for itself (and shows in its own way, if at all):
 * they are never rendered.
 */
public final class SessionContextBlock {

	/** The most items read and rendered. */
	public static final int MAX_ITEMS = 100;

	/** The most characters of one value. */
	public static final int MAX_VALUE_CHARS = 1_000;

	/** The most characters of the lines between the tags. */
	public static final int MAX_TOTAL_CHARS = 8_000;

	/** The most items read from the store, private ones included. */
	static final int READ_LIMIT = 1_000;

	private static final ItemQuery QUERY = ItemQuery.all().page(0, READ_LIMIT);

	/** Keys starting with this are not rendered. */
	public static final String PRIVATE_PREFIX = "_";

	static final String OPEN = "<session-context>";

	static final String CLOSE = "</session-context>";

	private SessionContextBlock() {
	}

	/**
	 * Read a session's memory and render it, without blocking.
	 * @param store the store
	 * @param sessionId the session
	 * @return the block; empty text when the session's memory is empty
	 */
	public static Mono<String> read(KeyValueStore store, String sessionId) {
		return store.list(SessionMemory.NAMESPACE_PREFIX + sessionId, QUERY)
			.map(SessionContextBlock::render)
			.defaultIfEmpty("");
	}

	/**
	 * Read a session's memory once, both rendered as the block and as values by key (the
	 * private ones left out), without blocking.
	 * @param store the store
	 * @param sessionId the session
	 * @return the snapshot; empty when the session's memory is empty
	 */
	public static Mono<Snapshot> snapshot(KeyValueStore store, String sessionId) {
		return store.list(SessionMemory.NAMESPACE_PREFIX + sessionId, QUERY).map((items) -> {
			// most sessions have no memory: no map, no stream, on every turn
			if (items.isEmpty()) {
				return Snapshot.EMPTY;
			}
			Map<String, JsonNode> values = new LinkedHashMap<>();
			for (MemoryItem item : items) {
				if (!item.key().startsWith(PRIVATE_PREFIX)) {
					values.put(item.key(), item.value());
				}
			}
			return new Snapshot(render(items), values);
		}).defaultIfEmpty(Snapshot.EMPTY);
	}

	/**
	 * A session's memory as read for one turn.
	 *
	 * @param block the rendered {@code <session-context>} block, empty for none
	 * @param values the values by key, oldest first, private keys left out
	 */
	public record Snapshot(String block, Map<String, JsonNode> values) {

		/** An empty session memory. */
		public static final Snapshot EMPTY = new Snapshot("", Map.of());

		public Snapshot {
			values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
		}

	}

	/**
	 * Render items, oldest first as listed.
	 * @param items the items
	 * @return the block; empty text when there are no items
	 */
	public static String render(List<MemoryItem> all) {
		List<MemoryItem> items = all.stream().filter((item) -> !item.key().startsWith(PRIVATE_PREFIX)).toList();
		if (items.isEmpty()) {
			return "";
		}
		StringBuilder block = new StringBuilder(OPEN).append('\n');
		int total = 0;
		int rendered = 0;
		boolean cut = false;
		for (MemoryItem item : items) {
			if (rendered == MAX_ITEMS) {
				cut = true;
				break;
			}
			String value = text(item.value());
			if (value.length() > MAX_VALUE_CHARS) {
				value = value.substring(0, MAX_VALUE_CHARS) + "…";
				cut = true;
			}
			String line = oneLine(item.key()) + ": " + oneLine(value);
			if (total + line.length() > MAX_TOTAL_CHARS) {
				cut = true;
				break;
			}
			block.append(line).append('\n');
			total += line.length() + 1;
			rendered++;
		}
		if (cut) {
			block.append("(session context truncated: ").append(rendered).append(" of ")
				.append((items.size() > MAX_ITEMS) ? "more than " + MAX_ITEMS : String.valueOf(items.size()))
				.append(" items shown, long values cut)\n");
		}
		return block.append(CLOSE).toString();
	}

	/** Strings without their JSON quotes; anything else as compact JSON. */
	private static String text(JsonNode value) {
		return value.isString() ? value.asString() : value.toString();
	}

	/** One item per line: a value cannot forge further lines or close the block. */
	private static String oneLine(String text) {
		return text.replace("\r", " ").replace("\n", " ").replace(CLOSE, "</ session-context>");
	}

}
