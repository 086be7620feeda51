package dev.agcore.tool.method;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.schema.ToolParameter;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Binds the model's arguments text to the parameters of one tool method. Everything
 * that can be worked out from the signature (readers, defaults, the schema) is prepared
 * once; a call only parses and binds.
 */
final class ArgumentBinder {

	private final JsonMapper mapper;

	private final Slot[] slots;

	/**
	 * Create a binder.
	 * @param method the tool method
	 * @param parameters its model-visible parameters
	 * @param schema the arguments schema generated from those parameters
	 * @param mapper the mapper to bind with
	 */
	ArgumentBinder(Method method, List<ToolParameter> parameters, ObjectNode schema, JsonMapper mapper) {
		this.mapper = mapper;
		this.slots = new Slot[method.getParameterCount()];
		JsonNode properties = schema.path("properties");
		for (ToolParameter parameter : parameters) {
			ObjectReader reader = mapper.readerFor(mapper.constructType(parameter.valueType()));
			this.slots[parameter.index()] = new Slot(parameter, reader, properties.path(parameter.name()),
					defaultValue(parameter));
		}
		// the remaining slots stay null: those are ToolContext parameters
	}

	/**
	 * Return the method arguments for one call.
	 * @param arguments the arguments text the model sent
	 * @param context the context of the call
	 * @return the arguments, in parameter order
	 * @throws ToolArgumentsException if the arguments do not fit the parameters
	 */
	Object[] bind(@Nullable String arguments, ToolContext context) {
		ObjectNode values = parse(arguments);
		Object[] bound = new Object[this.slots.length];
		for (int i = 0; i < this.slots.length; i++) {
			Slot slot = this.slots[i];
			bound[i] = (slot != null) ? bind(slot, values.get(slot.parameter().name())) : context;
		}
		return bound;
	}

	private ObjectNode parse(@Nullable String arguments) {
		if (arguments == null || arguments.isBlank()) {
			return this.mapper.createObjectNode();
		}
		JsonNode tree;
		try {
			tree = this.mapper.readTree(arguments);
		}
		catch (JacksonException ex) {
			throw new ToolArgumentsException("Arguments are not valid JSON: " + shortReason(ex), ex);
		}
		if (tree instanceof ObjectNode object) {
			return object;
		}
		throw new ToolArgumentsException("Arguments must be a JSON object");
	}

	private @Nullable Object bind(Slot slot, @Nullable JsonNode value) {
		ToolParameter parameter = slot.parameter();
		if (isAbsent(value, parameter.required())) {
			if (parameter.required()) {
				throw ArgumentErrors.missing(parameter.name());
			}
			return slot.defaultValue();
		}
		checkRequired(slot.schema(), value, parameter.name());
		Object bound;
		try {
			bound = slot.reader().readValue(value);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.bindingFailed(parameter.name(), value, ex, this.mapper);
		}
		return parameter.isOptional() ? Optional.ofNullable(bound) : bound;
	}

	// models often send "" or null for a parameter they mean to leave out
	private static boolean isAbsent(@Nullable JsonNode value, boolean required) {
		return value == null || value.isNull() || (!required && value.isString() && value.asString().isEmpty());
	}

	// Jackson leaves a missing record component null; the schema said it was required
	private static void checkRequired(JsonNode schema, JsonNode value, String path) {
		if (value.isObject()) {
			for (JsonNode name : schema.path("required")) {
				JsonNode property = value.get(name.asString());
				if (property == null || property.isNull()) {
					throw ArgumentErrors.missing(path + "." + name.asString());
				}
			}
			for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
				JsonNode nested = value.get(property.getKey());
				if (nested != null) {
					checkRequired(property.getValue(), nested, path + "." + property.getKey());
				}
			}
		}
		else if (value.isArray() && schema.path("items").isObject()) {
			for (int i = 0; i < value.size(); i++) {
				checkRequired(schema.get("items"), value.get(i), path + "[" + i + "]");
			}
		}
	}

	private static @Nullable Object defaultValue(ToolParameter parameter) {
		if (parameter.isOptional()) {
			return Optional.empty();
		}
		if (parameter.type() instanceof Class<?> clazz && clazz.isPrimitive()) {
			// 0, false or '\0', as the language defines them
			return Array.get(Array.newInstance(clazz, 1), 0);
		}
		return null;
	}

	private static String shortReason(JacksonException ex) {
		String reason = ArgumentErrors.firstLine(ex.getOriginalMessage());
		int detail = reason.indexOf(" (");
		return (detail > 0) ? reason.substring(0, detail) : reason;
	}

	private record Slot(ToolParameter parameter, ObjectReader reader, JsonNode schema, @Nullable Object defaultValue) {
	}

}
