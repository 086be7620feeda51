package dev.agcore.autoconfigure.web;

import java.util.List;
import java.util.function.Function;

import dev.agcore.model.ChatOptions;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.runtime.Agent;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the model options of an invoke, stream or resume request body ({@code temperature},
 * {@code maxTokens}, {@code toolChoice}, {@code responseFormat}, {@code responseSchema},
 * {@code model}) into {@link ChatOptions}, refusing a bad value with a 400 that names the
 * field. Whether the agent may use the model is for the agent to say
 * ({@link dev.agcore.runtime.ModelNotAllowedException}).
 */
final class RequestOptions {

	/** The highest temperature any provider accepts. */
	static final double MAX_TEMPERATURE = 2.0;

	private RequestOptions() {
	}

	/** The names of the option fields. */
	static final List<String> FIELDS = List.of("temperature", "maxTokens", "toolChoice", "responseFormat",
			"responseSchema", "model");

	/**
	 * Read the options.
	 * @param body the request body's fields by name
	 * @param agent the agent the request is for
	 * @return the options
	 */
	static ChatOptions read(Function<String, @Nullable JsonNode> body, Agent agent) {
		ChatOptions.Builder options = ChatOptions.builder();
		JsonNode temperature = present(body.apply("temperature"));
		if (temperature != null) {
			if (!temperature.isNumber() || temperature.asDouble() < 0 || temperature.asDouble() > MAX_TEMPERATURE) {
				throw AgentHandler.badRequest("'temperature' must be a number from 0 to 2");
			}
			options.temperature(temperature.asDouble());
		}
		JsonNode maxTokens = present(body.apply("maxTokens"));
		if (maxTokens != null) {
			if (!maxTokens.isIntegralNumber() || !maxTokens.canConvertToInt() || maxTokens.asInt() < 1) {
				throw AgentHandler.badRequest("'maxTokens' must be a positive whole number");
			}
			options.maxTokens(maxTokens.asInt());
		}
		JsonNode toolChoice = present(body.apply("toolChoice"));
		if (toolChoice != null) {
			options.toolChoice(toolChoice(toolChoice, agent));
		}
		JsonNode model = present(body.apply("model"));
		if (model != null) {
			if (!model.isString() || model.asString().isBlank()) {
				throw AgentHandler.badRequest("'model' must be the name of a model the agent allows");
			}
			options.model(model.asString().strip());
		}
		options.responseFormat(responseFormat(present(body.apply("responseFormat")), present(body.apply("responseSchema"))));
		return options.build();
	}

	/** Whether the request asks for a structured answer, whose output is then parsed JSON. */
	static boolean structured(Function<String, @Nullable JsonNode> body) {
		return present(body.apply("responseSchema")) != null;
	}

	private static ToolChoice toolChoice(JsonNode value, Agent agent) {
		if (!value.isString() || value.asString().isBlank()) {
			throw AgentHandler.badRequest("'toolChoice' must be \"auto\", \"none\", \"required\" or a tool name");
		}
		ToolChoice choice = ToolChoice.parse(value.asString());
		List<String> tools = agent.tools().stream().map(ToolSpec::name).toList();
		if (choice.mode() == ToolChoice.Mode.TOOL && !tools.contains(choice.toolName())) {
			throw AgentHandler.badRequest("'toolChoice' names no tool of agent '" + agent.name() + "' ('"
					+ choice.toolName() + "'); its tools: " + tools);
		}
		if (choice.mode() == ToolChoice.Mode.REQUIRED && tools.isEmpty()) {
			throw AgentHandler.badRequest("'toolChoice' is \"required\" but agent '" + agent.name() + "' has no tools");
		}
		return choice;
	}

	private static @Nullable ResponseFormat responseFormat(@Nullable JsonNode format, @Nullable JsonNode schema) {
		if (schema != null) {
			if (!(schema instanceof ObjectNode object) || object.isEmpty()) {
				throw AgentHandler.badRequest("'responseSchema' must be a JSON schema object, e.g. "
						+ "{\"type\": \"object\", \"properties\": {...}}");
			}
			if (format != null && !(format.isString() && format.asString().equals("json_schema"))) {
				throw AgentHandler.badRequest("'responseFormat' and 'responseSchema' exclude each other: "
						+ "'responseSchema' alone asks for an answer matching the schema");
			}
			JsonNode title = object.get("title");
			String name = (title != null && title.isString() && title.asString().matches("[A-Za-z0-9_-]{1,64}"))
					? title.asString() : "answer";
			return ResponseFormat.jsonSchema(name, object.deepCopy());
		}
		if (format == null) {
			return null;
		}
		if (format.isString()) {
			switch (format.asString()) {
				case "text":
					return ResponseFormat.TEXT;
				case "json_object":
					return ResponseFormat.JSON_OBJECT;
				default:
			}
		}
		throw AgentHandler.badRequest("'responseFormat' must be \"text\" or \"json_object\" "
				+ "(for an answer matching a schema, send 'responseSchema')");
	}

	private static @Nullable JsonNode present(@Nullable JsonNode value) {
		return (value == null || value.isNull() || value.isMissingNode()) ? null : value;
	}

}
