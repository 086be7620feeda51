package dev.agcore.memory;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Which items of a namespace to list: those whose key starts with a prefix and that were
 * created strictly after an instant, oldest first (ties by key), after skipping
 * {@code offset} and at most {@code limit} of them.
 *
 * @param keyPrefix the prefix keys must start with; empty for all
 * @param since only items created strictly after it; {@code null} for all
 * @param offset how many matching items to skip
 * @param limit the most items returned
 * @since 0.1.0
 */
public record ItemQuery(String keyPrefix, @Nullable Instant since, int offset, int limit) {

	/** The most items one query returns. */
	public static final int MAX_LIMIT = 10_000;

	public ItemQuery {
		Objects.requireNonNull(keyPrefix, "'keyPrefix' must not be null");
		if (offset < 0) {
			throw new IllegalArgumentException("'offset' must not be negative, was " + offset);
		}
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new IllegalArgumentException("'limit' must be between 1 and " + MAX_LIMIT + ", was " + limit);
		}
	}

	/**
	 * Every item, up to {@link #MAX_LIMIT}.
	 * @return the query
	 */
	public static ItemQuery all() {
		return new ItemQuery("", null, 0, MAX_LIMIT);
	}

	/**
	 * The items whose key starts with a prefix, up to {@link #MAX_LIMIT}.
	 * @param keyPrefix the prefix
	 * @return the query
	 */
	public static ItemQuery prefix(String keyPrefix) {
		return new ItemQuery(keyPrefix, null, 0, MAX_LIMIT);
	}

	public ItemQuery since(@Nullable Instant since) {
		return new ItemQuery(this.keyPrefix, since, this.offset, this.limit);
	}

	public ItemQuery page(int offset, int limit) {
		return new ItemQuery(this.keyPrefix, this.since, offset, limit);
	}

	/**
	 * Whether an item matches the prefix and {@code since}, before paging.
	 * @param item the item
	 * @return true if it matches
	 */
	public boolean matches(MemoryItem item) {
		return item.key().startsWith(this.keyPrefix) && (this.since == null || item.createdAt().isAfter(this.since));
	}

}
