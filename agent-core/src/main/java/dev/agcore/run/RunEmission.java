package dev.agcore.run;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An event emitted by a {@link RunExecutor}, to be stored as a {@link RunEvent}; the one
 * with an outcome ends the run.
 *
 * @param type the event's type
 * @param data the event's data
 * @param outcome how the run ended, for its last event; {@code null} otherwise
 * @since 0.1.0
 */
public record RunEmission(String type, JsonNode data, @Nullable RunOutcome outcome) {

	public RunEmission {
		Objects.requireNonNull(type, "'type' must not be null");
		Objects.requireNonNull(data, "'data' must not be null");
	}

	public static RunEmission event(String type, JsonNode data) {
		return new RunEmission(type, data, null);
	}

	public static RunEmission end(String type, JsonNode data, RunOutcome outcome) {
		return new RunEmission(type, data, Objects.requireNonNull(outcome, "'outcome' must not be null"));
	}

}
