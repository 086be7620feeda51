package dev.agcore.tool.typed;

import java.util.Objects;

import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolDefinitionException;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.binding.ArgumentErrors;
import dev.agcore.tool.binding.ArgumentValidator;
import dev.agcore.tool.binding.ArgumentViolation;
import dev.agcore.tool.binding.ToolArguments;
import dev.agcore.tool.binding.ToolBinding;
import dev.agcore.tool.binding.ToolDeclarations;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.util.ClassUtils;

/**
 * Runs a {@link TypedTool}: normalises the model's arguments against the input type's
 * schema, binds them to the input type, validates, calls.
 *
 * @param <I> the input type
 */
final class TypedToolCallback<I> implements ToolCallback {

	private final TypedTool<I> tool;

	private final ToolSpec spec;

	private final ToolMetadata metadata;

	private final JsonMapper mapper;

	private final ObjectReader reader;

	private final ArgumentValidator validator;

	private final boolean raw;

	private final String source;

	@SuppressWarnings("unchecked")
	TypedToolCallback(TypedTool<?> tool, ToolBinding binding, @Nullable String source) {
		this.tool = (TypedTool<I>) tool;
		String where = ClassUtils.getUserClass(tool).getName();
		this.source = (source != null) ? source + " (" + where + ")" : where;
		this.mapper = binding.mapper();
		this.validator = binding.validator();
		try {
			Class<I> inputType = this.tool.inputType();
			this.raw = JsonNode.class.isAssignableFrom(inputType);
			ObjectNode schema = this.raw ? freeForm() : inputSchema(inputType, binding);
			this.spec = new ToolSpec(ToolDeclarations.checkName(tool.name()), tool.description(), schema);
			this.metadata = new ToolMetadata(tool.permission(), tool.category(), tool.timeout(), tool.returnDirect(),
					this.raw ? tool.secretParameters() : ToolDeclarations.secretParameters(tool.secretParameters(),
							ToolDeclarations.parameterNames(schema)));
			this.reader = this.mapper.readerFor(inputType);
		}
		catch (ToolDefinitionException | IllegalArgumentException | IllegalStateException ex) {
			throw new ToolDefinitionException("Invalid typed tool " + this.source + ": " + ex.getMessage(), ex);
		}
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public ToolMetadata metadata() {
		return this.metadata;
	}

	@Override
	public String call(String arguments, ToolContext context) throws Exception {
		Objects.requireNonNull(context, "'context' must not be null");
		I input = this.raw ? raw(arguments) : bind(arguments);
		return ToolDeclarations.resultText(this.tool.call(input, context), this.mapper);
	}

	@Override
	public String source() {
		return this.source;
	}

	@Override
	public String toString() {
		return "TypedTool '" + this.spec.name() + "' of " + this.source;
	}

	private I bind(String arguments) {
		ObjectNode values = ToolArguments.parse(arguments, this.mapper);
		ToolArguments.normalize(values, this.spec.inputSchema());
		I input;
		try {
			input = this.reader.readValue(values);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.bindingFailed("", values, ex, this.mapper);
		}
		ArgumentViolation.throwIfAny(this.validator.validate(input));
		return input;
	}

	private I raw(String arguments) {
		JsonNode tree = (arguments == null || arguments.isBlank()) ? this.mapper.createObjectNode()
				: parseRaw(arguments);
		if (!this.reader.getValueType().getRawClass().isInstance(tree)) {
			throw new ToolArgumentsException("Arguments must be a JSON object");
		}
		@SuppressWarnings("unchecked")
		I input = (I) tree;
		return input;
	}

	private JsonNode parseRaw(String arguments) {
		try {
			return this.mapper.readTree(arguments);
		}
		catch (JacksonException ex) {
			throw ArgumentErrors.notJson(ex);
		}
	}

	private static ObjectNode inputSchema(Class<?> inputType, ToolBinding binding) {
		ObjectNode schema = binding.schemaGenerator().schemaFor(inputType);
		if (!"object".equals(schema.path("type").asString("")) || !schema.has("properties")) {
			throw new ToolDefinitionException("input type " + inputType.getName()
					+ " must be a record or class with properties (or JsonNode for raw arguments)");
		}
		return schema;
	}

	private ObjectNode freeForm() {
		ObjectNode schema = this.mapper.createObjectNode();
		schema.put("type", "object");
		schema.put("additionalProperties", true);
		return schema;
	}

}
