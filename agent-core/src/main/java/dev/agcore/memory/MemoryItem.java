package dev.agcore.memory;

import java.time.Instant;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * A value kept by a {@link KeyValueStore}, with its metadata and timestamps.
 *
 * @param key the key, unique within its namespace
 * @param value the value
 * @param metadata attributes of the value (a JSON object; empty when there are none)
 * @param createdAt when the key was first written; kept when the value is replaced
 * @param updatedAt when the value was last written
 * @since 0.1.0
 */
public record MemoryItem(String key, JsonNode value, JsonNode metadata, Instant createdAt, Instant updatedAt) {

	public MemoryItem {
		Objects.requireNonNull(key, "'key' must not be null");
		Objects.requireNonNull(value, "'value' must not be null");
		Objects.requireNonNull(metadata, "'metadata' must not be null");
		Objects.requireNonNull(createdAt, "'createdAt' must not be null");
		Objects.requireNonNull(updatedAt, "'updatedAt' must not be null");
	}

}
