package dev.agcore.tool.method;

import java.lang.reflect.Array;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.binding.ArgumentErrors;
import dev.agcore.tool.binding.ToolArguments;
import dev.agcore.tool.schema.ToolParameter;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Binds the model's arguments text to the parameters of one tool method, and fills the
 * injected ones from the call's context. Everything that can be worked out from the
 * signature (readers, defaults, the schema) is prepared once; a call only parses and
 * binds.
 */
final class ArgumentBinder {

	private final JsonMapper mapper;

	private final ObjectNode schema;

	private final Slot[] slots;

	private final boolean raw;

	/**
	 * Create a binder.
	 * @param parameterCount the number of parameters of the method
	 * @param parameters its model-visible parameters
	 * @param injections the injected parameters, by index
	 * @param schema the arguments schema generated from those parameters
	 * @param mapper the mapper to bind with
	 */
	ArgumentBinder(int parameterCount, List<ToolParameter> parameters, Map<Integer, Injection> injections,
			ObjectNode schema, JsonMapper mapper) {
		this.mapper = mapper;
		this.schema = schema;
		this.slots = new Slot[parameterCount];
		for (ToolParameter parameter : parameters) {
			ObjectReader reader = mapper.readerFor(mapper.constructType(parameter.valueType()));
			this.slots[parameter.index()] = new ModelSlot(parameter, reader, absentValue(parameter));
		}
		boolean raw = false;
		for (Map.Entry<Integer, Injection> injection : injections.entrySet()) {
			this.slots[injection.getKey()] = new InjectedSlot(injection.getValue());
			raw = raw || injection.getValue() instanceof Injection.Raw;
		}
		this.raw = raw;
	}

	/**
	 * Return the method arguments for one call.
	 * @param arguments the arguments text the model sent
	 * @param context the context of the call
	 * @return the arguments, in parameter order
	 * @throws ToolArgumentsException if the arguments do not fit the parameters
	 */
	@Nullable Object[] bind(@Nullable String arguments, ToolContext context) {
		JsonNode values = this.raw ? parseRaw(arguments) : normalized(arguments);
		@Nullable Object[] bound = new Object[this.slots.length];
		for (int i = 0; i < this.slots.length; i++) {
			Slot slot = this.slots[i];
			if (slot instanceof ModelSlot model) {
				bound[i] = bind(model, values.get(model.parameter().name()));
			}
			else if (slot instanceof InjectedSlot injected) {
				bound[i] = inject(injected.injection(), values, context);
			}
		}
		return bound;
	}

	private ObjectNode normalized(@Nullable String arguments) {
		ObjectNode values = ToolArguments.parse(arguments, this.mapper);
		ToolArguments.normalize(values, this.schema);
		return values;
	}

	// a raw tool gets what the model sent, untouched
	private JsonNode parseRaw(@Nullable String arguments) {
		if (arguments == null || arguments.isBlank()) {
			return this.mapper.createObjectNode();
		}
		try {
			return this.mapper.readTree(arguments);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.notJson(ex);
		}
	}

	private @Nullable Object bind(ModelSlot slot, @Nullable JsonNode value) {
		ToolParameter parameter = slot.parameter();
		if (value == null || value.isNull()) {
			// optional and left out: normalisation reported missing required ones
			return slot.absentValue();
		}
		Object bound;
		try {
			bound = slot.reader().readValue(value);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.bindingFailed(parameter.name(), value, ex, this.mapper);
		}
		return parameter.isOptional() ? Optional.ofNullable(bound) : bound;
	}

	private static @Nullable Object inject(Injection injection, JsonNode values, ToolContext context) {
		if (injection instanceof Injection.Raw raw) {
			if (raw.objectOnly() && !values.isObject()) {
				throw new ToolArgumentsException("Arguments must be a JSON object");
			}
			return values;
		}
		if (injection instanceof Injection.StateEntry entry) {
			return entry.value(context);
		}
		return ((Injection.FromContext) injection).value().get(context);
	}

	private static @Nullable Object absentValue(ToolParameter parameter) {
		if (parameter.isOptional()) {
			return Optional.empty();
		}
		if (parameter.type() instanceof Class<?> clazz && clazz.isPrimitive()) {
			// 0, false or '\0', as the language defines them
			return Array.get(Array.newInstance(clazz, 1), 0);
		}
		return null;
	}

	private sealed interface Slot permits ModelSlot, InjectedSlot {

	}

	private record ModelSlot(ToolParameter parameter, ObjectReader reader, @Nullable Object absentValue)
			implements Slot {
	}

	private record InjectedSlot(Injection injection) implements Slot {
	}

}
