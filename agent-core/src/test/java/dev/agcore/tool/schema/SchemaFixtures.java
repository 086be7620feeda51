package dev.agcore.tool.schema;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.tool.ToolContext;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Representative tool signatures for the schema golden tests.
 */
@SuppressWarnings("unused")
class SchemaFixtures {

	@Tool
	String primitives(String city, int days, double threshold, boolean metric, long id, Integer count,
			BigDecimal price) {
		return "";
	}

	@Tool
	String optionals(@ToolParam(description = "What to look for") String query,
			@ToolParam(required = false, description = "At most this many") Integer limit, Optional<String> language,
			@Nullable String cursor, @ToolParam(required = false) int page) {
		return "";
	}

	@Tool
	String enums(double value, Unit from, Unit to, Direction direction) {
		return "";
	}

	@Tool
	String nested(@ToolParam(description = "The trip to plan") Trip trip) {
		return "";
	}

	@Tool
	String freeForm(Map<String, Object> data, JsonNode payload, Map<String, Integer> counts, Object anything) {
		return "";
	}

	@Tool
	String context(ToolContext context, String greeting) {
		return "";
	}

	@Tool
	String recursive(Category category) {
		return "";
	}

	@Tool
	String collections(int[] values, List<String> tags, Stop[] stops) {
		return "";
	}

	@Tool
	String none() {
		return "";
	}

	/** Jackson 3 reads and writes enums by {@code toString()}. */
	enum Unit {

		CELSIUS, FAHRENHEIT;

		@Override
		public String toString() {
			return name().toLowerCase();
		}

	}

	enum Direction {

		@JsonProperty("n")
		NORTH, @JsonProperty("s")
		SOUTH

	}

	record Trip(@ToolParam(description = "A short name") String name, List<Stop> stops,
			@JsonPropertyDescription("First day") LocalDate start, Instant bookedAt, BigDecimal budget,
			Optional<String> notes) {
	}

	record Stop(String city, @ToolParam(description = "Nights to stay") int nights, @Nullable String hotel,
			@ToolParam(required = false) Unit unit) {
	}

	record Category(String name, List<Category> children) {
	}

}
