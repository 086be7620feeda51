package dev.agcore.tool.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The JSON values a mapper reads as an enum's constants. Asked of the mapper itself so
 * the schema lists exactly what binding accepts, whatever {@code @JsonProperty},
 * {@code @JsonValue} or enum features (Jackson 3 reads {@code toString()} by default) say.
 */
public final class EnumValues {

	private EnumValues() {
	}

	/**
	 * Return the JSON value of each constant of an enum, in declaration order.
	 * @param enumType the enum class
	 * @param mapper the mapper that binds the values
	 * @return the values
	 */
	public static List<JsonNode> of(Class<?> enumType, ObjectMapper mapper) {
		Objects.requireNonNull(enumType, "'enumType' must not be null");
		Objects.requireNonNull(mapper, "'mapper' must not be null");
		Object[] constants = enumType.getEnumConstants();
		if (constants == null) {
			throw new IllegalArgumentException("'" + enumType.getName() + "' is not an enum");
		}
		List<JsonNode> values = new ArrayList<>(constants.length);
		for (Object constant : constants) {
			values.add(valueOf((Enum<?>) constant, enumType, mapper));
		}
		return values;
	}

	private static JsonNode valueOf(Enum<?> constant, Class<?> enumType, ObjectMapper mapper) {
		try {
			JsonNode value = mapper.valueToTree(constant);
			// only trust the written form if reading it gives the constant back
			if (mapper.treeToValue(value, enumType) == constant) {
				return value;
			}
		}
		catch (JacksonException ex) {
			// fall through to the name
		}
		return JsonNodeFactory.instance.stringNode(constant.name());
	}

}
