package dev.agcore.tool.schema;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.MemberScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import dev.agcore.ToolParam;
import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolDefinitionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Generates the JSON schema of a tool's arguments from Java types, using the victools
 * generator with its Jackson module so property names match what the mapper binds.
 * The output is normalised for model APIs: everything inlined, no {@code $ref},
 * {@code $defs}, {@code $schema} or {@code title}, and a {@code properties} object on
 * every non-free-form object.
 * <p>
 * When Bean Validation and victools' Jakarta validation module are on the class path,
 * constraints ({@code @Min}, {@code @Size}, {@code @Pattern}...) become schema keywords
 * ({@code minimum}, {@code maxLength}, {@code pattern}...), on record components and
 * method parameters alike. {@code @ToolParam(defaultValue = ...)} becomes
 * {@code default}, typed as the parameter's JSON type.
 * <p>
 * Instances are thread-safe. Generation is meant to happen once per tool, at startup.
 */
public final class JsonSchemaGenerator {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	// keep the declaration order of record components and fields: it is the order
	// the author chose, and the one the model reads
	private static final Comparator<MemberScope<?, ?>> DECLARATION_ORDER = Comparator
		.comparing((member) -> !(member instanceof FieldScope));

	private static final boolean VALIDATION_PRESENT = ClassUtils.isPresent("jakarta.validation.constraints.Min",
			JsonSchemaGenerator.class.getClassLoader())
			&& ClassUtils.isPresent(
					"com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule",
					JsonSchemaGenerator.class.getClassLoader());

	private final JsonMapper mapper;

	private final SchemaGenerator generator;

	/**
	 * Create a generator for the library's default mapper, {@link AgentJson#mapper()}.
	 */
	public JsonSchemaGenerator() {
		this(AgentJson.mapper());
	}

	/**
	 * Create a generator whose schemas match what the given mapper binds.
	 * @param mapper the mapper tool arguments are bound with
	 */
	public JsonSchemaGenerator(JsonMapper mapper) {
		this.mapper = Objects.requireNonNull(mapper, "'mapper' must not be null");
		this.generator = new SchemaGenerator(configure(new SchemaGeneratorConfigBuilder(mapper,
				SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON))
			.build());
	}

	private SchemaGeneratorConfigBuilder configure(SchemaGeneratorConfigBuilder builder) {
		builder.with(Option.FLATTENED_OPTIONALS, Option.STANDARD_FORMATS, Option.ADDITIONAL_FIXED_TYPES,
				Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES)
			.without(Option.SCHEMA_VERSION_INDICATOR);
		// registered before the Jackson module: the first resolver with an answer wins
		builder.forTypesInGeneral().withCustomDefinitionProvider(this::customDefinition);
		builder.forFields()
			.withDescriptionResolver(JsonSchemaGenerator::description)
			.withRequiredCheck(JsonSchemaGenerator::isRequired)
			.withDefaultResolver(this::defaultValue)
			.withNullableCheck((field) -> false);
		builder.forMethods().withNullableCheck((method) -> false);
		builder.with(new JacksonSchemaModule());
		if (VALIDATION_PRESENT) {
			ValidationKeywords.configure(builder);
		}
		// after the module, which only renames for @JsonProperty and @JsonNaming
		builder.forFields().withPropertyNameOverrideResolver(this::mapperNamingStrategy);
		builder.forTypesInGeneral().withPropertySorter(DECLARATION_ORDER);
		return builder;
	}

	/**
	 * Return the schema of a type. An {@code Optional<T>} gets the schema of {@code T}.
	 * @param type the type
	 * @return a new, normalised schema
	 * @throws ToolDefinitionException if the type cannot be represented in JSON
	 */
	public ObjectNode schemaFor(Type type) {
		Objects.requireNonNull(type, "'type' must not be null");
		String problem = UnsupportedTypes.problem(type);
		if (problem != null) {
			throw new ToolDefinitionException(problem);
		}
		Type target = ToolParameter.unwrapOptional(type);
		ObjectNode generated;
		// victools keeps per-generation state in its configuration
		synchronized (this.generator) {
			generated = this.generator.generateSchema(target);
		}
		return SchemaNormalizer.normalize(generated);
	}

	/**
	 * Return the schema of an arguments object with one property per parameter.
	 * @param parameters the parameters, as from {@link ToolParameter#forMethod}
	 * @return a new {@code {"type":"object","properties":{...},"required":[...]}} schema
	 * @throws ToolDefinitionException naming the first parameter whose type cannot be
	 * represented in JSON
	 */
	public ObjectNode schemaForParameters(List<ToolParameter> parameters) {
		Objects.requireNonNull(parameters, "'parameters' must not be null");
		ObjectNode schema = NODES.objectNode();
		schema.put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		ArrayNode required = NODES.arrayNode();
		for (ToolParameter parameter : parameters) {
			ObjectNode property;
			try {
				property = schemaFor(parameter.type());
			}
			catch (ToolDefinitionException ex) {
				throw new ToolDefinitionException("parameter '" + parameter.name() + "': " + ex.getMessage(), ex);
			}
			ObjectNode described = withDescription(property, parameter.description());
			if (VALIDATION_PRESENT) {
				ValidationKeywords.apply(described, rawClass(parameter.valueType()), parameter.annotations());
			}
			if (parameter.defaultValue() != null) {
				described.set("default", defaultValue(parameter.defaultValue(), parameter.type(),
						"parameter '" + parameter.name() + "'"));
			}
			properties.set(parameter.name(), described);
			if (parameter.required()) {
				required.add(parameter.name());
			}
		}
		if (!required.isEmpty()) {
			schema.set("required", required);
		}
		return schema;
	}

	/**
	 * Return the arguments schema of a method; a {@code ToolContext} parameter is left out.
	 * @param method the method
	 * @return a new object schema
	 * @throws ToolDefinitionException naming the method if a parameter is not supported
	 */
	public ObjectNode schemaForMethod(Method method) {
		Objects.requireNonNull(method, "'method' must not be null");
		try {
			return schemaForParameters(ToolParameter.forMethod(method, method.getDeclaringClass()));
		}
		catch (ToolDefinitionException ex) {
			throw new ToolDefinitionException(
					method.getDeclaringClass().getName() + "#" + method.getName() + ": " + ex.getMessage(), ex);
		}
	}

	// the parameter's description, placed right after "type" where people look for it
	private static ObjectNode withDescription(ObjectNode schema, @Nullable String description) {
		if (description == null) {
			return schema;
		}
		ObjectNode result = NODES.objectNode();
		if (schema.has("type")) {
			result.set("type", schema.get("type"));
		}
		result.put("description", description);
		schema.properties().forEach((entry) -> {
			if (!entry.getKey().equals("description")) {
				result.putIfAbsent(entry.getKey(), entry.getValue());
			}
		});
		return result;
	}

	private @Nullable CustomDefinition customDefinition(ResolvedType type, SchemaGenerationContext context) {
		Class<?> raw = type.getErasedType();
		if (raw.isEnum()) {
			return new CustomDefinition(enumSchema(raw));
		}
		if (ArrayNode.class.isAssignableFrom(raw)) {
			ObjectNode array = NODES.objectNode();
			array.put("type", "array");
			return inline(array);
		}
		if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
			return inline(SchemaNormalizer.freeFormObject());
		}
		if (Map.class.isAssignableFrom(raw)) {
			List<ResolvedType> arguments = type.typeParametersFor(Map.class);
			Class<?> value = (arguments == null || arguments.size() < 2) ? Object.class
					: arguments.get(1).getErasedType();
			if (value == Object.class || JsonNode.class.isAssignableFrom(value)) {
				return inline(SchemaNormalizer.freeFormObject());
			}
		}
		return null;
	}

	private ObjectNode enumSchema(Class<?> enumType) {
		List<JsonNode> values = EnumValues.of(enumType, this.mapper);
		ObjectNode schema = NODES.objectNode();
		if (values.stream().allMatch(JsonNode::isString)) {
			schema.put("type", "string");
		}
		else if (values.stream().allMatch(JsonNode::isIntegralNumber)) {
			schema.put("type", "integer");
		}
		schema.putArray("enum").addAll(values);
		return schema;
	}

	private static CustomDefinition inline(ObjectNode schema) {
		return new CustomDefinition(schema, CustomDefinition.INLINE_DEFINITION, CustomDefinition.INCLUDING_ATTRIBUTES);
	}

	// the mapper-wide naming strategy (e.g. snake_case) that binding applies
	private @Nullable String mapperNamingStrategy(FieldScope field) {
		PropertyNamingStrategy strategy = this.mapper.deserializationConfig().getPropertyNamingStrategy();
		if (strategy == null || field.isFakeContainerItemScope()) {
			return null;
		}
		String name = field.getDeclaredName();
		String translated = strategy.nameForField(this.mapper.deserializationConfig(), null, name);
		return (translated != null && !translated.equals(name)) ? translated : null;
	}

	private @Nullable JsonNode defaultValue(FieldScope field) {
		if (field.isFakeContainerItemScope()) {
			return null;
		}
		ToolParam toolParam = field.getAnnotationConsideringFieldAndGetter(ToolParam.class);
		if (toolParam == null || ToolParam.NO_DEFAULT.equals(toolParam.defaultValue())) {
			return null;
		}
		Field raw = field.getRawMember();
		return defaultValue(toolParam.defaultValue(), raw.getGenericType(),
				"'" + raw.getDeclaringClass().getSimpleName() + "." + raw.getName() + "'");
	}

	private JsonNode defaultValue(String text, Type type, String what) {
		try {
			return DefaultValues.parse(text, type, this.mapper);
		}
		catch (IllegalArgumentException ex) {
			throw new ToolDefinitionException(what + ": " + ex.getMessage(), ex);
		}
	}

	private static Class<?> rawClass(Type type) {
		return ResolvableType.forType(type).resolve(Object.class);
	}

	private static @Nullable String description(FieldScope field) {
		if (field.isFakeContainerItemScope()) {
			return null;
		}
		ToolParam toolParam = field.getAnnotationConsideringFieldAndGetter(ToolParam.class);
		return (toolParam != null && StringUtils.hasText(toolParam.description())) ? toolParam.description() : null;
	}

	private static boolean isRequired(FieldScope field) {
		if (field.isFakeContainerItemScope()) {
			return false;
		}
		Field raw = field.getRawMember();
		ToolParam toolParam = field.getAnnotationConsideringFieldAndGetter(ToolParam.class);
		return raw.getType() != Optional.class
				&& (toolParam == null || (toolParam.required() && ToolParam.NO_DEFAULT.equals(toolParam.defaultValue())))
				&& !Nullness.isNullable(raw, raw.getAnnotatedType());
	}

}
