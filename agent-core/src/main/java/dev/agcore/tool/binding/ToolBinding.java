package dev.agcore.tool.binding;

import java.util.Objects;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.schema.JsonSchemaGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * How tools read the model's arguments: the Jackson mapper arguments are bound (and
 * results written) with, the schema generator that follows that mapper, and the
 * validator applied before a tool runs. One instance serves all tools of an application;
 * building the generator and the validator is the costly part. Immutable.
 */
public final class ToolBinding {

	private final JsonMapper mapper;

	private final JsonSchemaGenerator schemaGenerator;

	private final ArgumentValidator validator;

	private ToolBinding(JsonMapper mapper, JsonSchemaGenerator schemaGenerator, ArgumentValidator validator) {
		this.mapper = mapper;
		this.schemaGenerator = schemaGenerator;
		this.validator = validator;
	}

	/**
	 * Return the default binding: {@link AgentJson#mapper()}, and Bean Validation if it is
	 * on the class path ({@link ArgumentValidator#detect()}).
	 * @return the shared default binding
	 */
	public static ToolBinding defaults() {
		return DefaultHolder.INSTANCE;
	}

	/**
	 * Create a binding for a mapper, validating with Bean Validation if it is on the class
	 * path.
	 * @param mapper the mapper
	 * @return the binding
	 */
	public static ToolBinding of(JsonMapper mapper) {
		Objects.requireNonNull(mapper, "'mapper' must not be null");
		return new ToolBinding(mapper, new JsonSchemaGenerator(mapper), ArgumentValidator.detect());
	}

	/**
	 * Return a copy that validates with another validator, e.g. the application's
	 * {@code BeanValidationArgumentValidator}, or {@link ArgumentValidator#NONE}.
	 * @param validator the validator
	 * @return a new binding
	 */
	public ToolBinding withValidator(ArgumentValidator validator) {
		return new ToolBinding(this.mapper, this.schemaGenerator,
				Objects.requireNonNull(validator, "'validator' must not be null"));
	}

	/**
	 * Return a copy that generates schemas with another generator, which must follow the
	 * same mapper.
	 * @param schemaGenerator the generator
	 * @return a new binding
	 */
	public ToolBinding withSchemaGenerator(JsonSchemaGenerator schemaGenerator) {
		return new ToolBinding(this.mapper, Objects.requireNonNull(schemaGenerator, "'schemaGenerator' must not be null"),
				this.validator);
	}

	public JsonMapper mapper() {
		return this.mapper;
	}

	public JsonSchemaGenerator schemaGenerator() {
		return this.schemaGenerator;
	}

	public ArgumentValidator validator() {
		return this.validator;
	}

	private static final class DefaultHolder {

		static final ToolBinding INSTANCE = new ToolBinding(AgentJson.mapper(), new JsonSchemaGenerator(),
				ArgumentValidator.detect());

	}

}
