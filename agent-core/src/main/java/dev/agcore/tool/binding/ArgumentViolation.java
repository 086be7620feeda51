package dev.agcore.tool.binding;

import java.util.Collection;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.agcore.tool.ToolArgumentsException;

/**
 * One argument that breaks a validation constraint.
 *
 * @param path the parameter, with a path into nested values (e.g.
 * {@code trip.stops[0].nights}); empty for a constraint on the arguments as a whole
 * @param message what is wrong, e.g. {@code must be less than or equal to 14}
 */
public record ArgumentViolation(String path, String message) {

	public ArgumentViolation {
		Objects.requireNonNull(path, "'path' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
	}

	/**
	 * Return the violation as the model reads it.
	 * @return e.g. {@code Parameter 'days' must be less than or equal to 14}
	 */
	public String describe() {
		return this.path.isEmpty() ? "Arguments are invalid: " + this.message
				: "Parameter '" + this.path + "' " + this.message;
	}

	/**
	 * Throw if there are violations, describing all of them in path order.
	 * @param violations the violations
	 * @throws ToolArgumentsException if there is at least one
	 */
	public static void throwIfAny(Collection<ArgumentViolation> violations) {
		if (!violations.isEmpty()) {
			throw new ToolArgumentsException(violations.stream()
				.sorted((a, b) -> a.path().equals(b.path()) ? a.message().compareTo(b.message())
						: a.path().compareTo(b.path()))
				.distinct()
				.map(ArgumentViolation::describe)
				.collect(Collectors.joining("; ")));
		}
	}

}
