package dev.agcore.tool.binding;

import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.schema.EnumValues;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Turns argument problems into short messages for the model, naming the parameter (with
 * a path into nested values) and what was expected.
 */
public final class ArgumentErrors {

	private static final int MAX_VALUE_LENGTH = 80;

	private ArgumentErrors() {
	}

	/**
	 * Report a required parameter the model left out.
	 * @param path the parameter, e.g. {@code trip.stops[0].city}
	 * @return the exception to throw
	 */
	public static ToolArgumentsException missing(String path) {
		return new ToolArgumentsException("Missing required parameter '" + path + "'");
	}

	/**
	 * Describe why a value could not be bound.
	 * @param parameter the parameter the value was sent for, or empty when the value is
	 * the whole arguments object
	 * @param value the JSON value the model sent
	 * @param ex the binding failure
	 * @param mapper the mapper, to list an enum's accepted values
	 * @return the exception to throw
	 */
	public static ToolArgumentsException bindingFailed(String parameter, JsonNode value, JacksonException ex,
			ObjectMapper mapper) {
		String path = path(parameter, ex.getPath());
		if (path.isEmpty()) {
			return new ToolArgumentsException("Arguments are invalid: " + reason(ex), ex);
		}
		JsonNode offending = locate(value, ex.getPath());
		String got = (offending != null) ? ", got " + render(offending) : "";
		if (ex instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
			Class<?> target = mismatch.getTargetType();
			String expected = target.isEnum() ? "one of " + allowed(target, mapper) : jsonType(target);
			return new ToolArgumentsException("Parameter '" + path + "' must be " + expected + got, ex);
		}
		return new ToolArgumentsException("Parameter '" + path + "' is invalid: " + reason(ex), ex);
	}

	/**
	 * Report arguments that are not valid JSON.
	 * @param ex the parse failure
	 * @return the exception to throw
	 */
	public static ToolArgumentsException notJson(JacksonException ex) {
		String reason = firstLine(ex.getOriginalMessage());
		int detail = reason.indexOf(" (");
		return new ToolArgumentsException(
				"Arguments are not valid JSON: " + ((detail > 0) ? reason.substring(0, detail) : reason), ex);
	}

	private static String reason(JacksonException ex) {
		Throwable cause = ex.getCause();
		return (ex instanceof ValueInstantiationException && cause != null && cause.getMessage() != null)
				? cause.getMessage() : firstLine(ex.getOriginalMessage());
	}

	static String firstLine(@Nullable String message) {
		if (message == null) {
			return "unknown error";
		}
		int end = message.indexOf('\n');
		return (end < 0) ? message : message.substring(0, end);
	}

	private static String path(String parameter, List<JacksonException.Reference> references) {
		StringBuilder path = new StringBuilder(parameter);
		for (JacksonException.Reference reference : references) {
			if (reference.getPropertyName() != null) {
				path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				path.append('[').append(reference.getIndex()).append(']');
			}
		}
		return path.toString();
	}

	private static @Nullable JsonNode locate(JsonNode value, List<JacksonException.Reference> references) {
		JsonNode node = value;
		for (JacksonException.Reference reference : references) {
			if (node == null) {
				return null;
			}
			node = (reference.getPropertyName() != null) ? node.get(reference.getPropertyName())
					: node.get(reference.getIndex());
		}
		return node;
	}

	private static String render(JsonNode node) {
		String text = node.toString();
		return (text.length() <= MAX_VALUE_LENGTH) ? text : text.substring(0, MAX_VALUE_LENGTH) + "...";
	}

	private static String allowed(Class<?> enumType, ObjectMapper mapper) {
		return EnumValues.of(enumType, mapper)
			.stream()
			.map(JsonNode::toString)
			.collect(Collectors.joining(", ", "[", "]"));
	}

	// the JSON type the schema promised for a Java type
	private static String jsonType(Class<?> type) {
		if (type == boolean.class || type == Boolean.class) {
			return "boolean";
		}
		if (type == int.class || type == long.class || type == short.class || type == byte.class
				|| type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
				|| type == BigInteger.class) {
			return "integer";
		}
		if ((type.isPrimitive() && type != char.class) || Number.class.isAssignableFrom(type)) {
			return "number";
		}
		if (type.getName().startsWith("java.time.")) {
			return "string in ISO-8601 format";
		}
		if (type.isArray() || Collection.class.isAssignableFrom(type)) {
			return "array";
		}
		if (type.isRecord() || Map.class.isAssignableFrom(type) || isBean(type)) {
			return "object";
		}
		return "string";
	}

	private static boolean isBean(Class<?> type) {
		return !type.getName().startsWith("java.") && !type.isEnum();
	}

}
