package dev.agcore.runtime;

import java.util.Objects;

/**
 * The outcome of a turn whose answer was asked for as a Java type.
 *
 * @param <T> the type
 * @param value the answer, mapped to the type and validated
 * @param result the turn's result; its {@link AgentResult#output() output} is the answer's
 * JSON text
 */
public record StructuredResult<T>(T value, AgentResult result) {

	public StructuredResult {
		Objects.requireNonNull(value, "'value' must not be null");
		Objects.requireNonNull(result, "'result' must not be null");
	}

}
