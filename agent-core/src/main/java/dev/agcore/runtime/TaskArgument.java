package dev.agcore.runtime;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one argument of a tool that hands a task to another agent, local
 * ({@link SubAgentTool}) or remote (the A2A client's tool): {@code {"task": "..."}}, a
 * non-blank string of bounded length.
 *
 * @since 0.1.0
 */
public final class TaskArgument {

	/** The argument's name. */
	public static final String NAME = "task";

	private TaskArgument() {
	}

	/**
	 * The JSON schema of the arguments.
	 * @param maxLength the most characters of a task
	 * @return a new schema object
	 */
	public static ObjectNode schema(int maxLength) {
		ObjectNode schema = AgentJson.mapper().createObjectNode();
		schema.put("type", "object");
		ObjectNode task = schema.putObject("properties").putObject(NAME);
		task.put("type", "string");
		task.put("description", "The task, with everything needed to do it");
		task.put("maxLength", maxLength);
		schema.putArray("required").add(NAME);
		schema.put("additionalProperties", false);
		return schema;
	}

	/**
	 * Read the task from the arguments the model sent.
	 * @param arguments the arguments text
	 * @param maxLength the most characters of a task
	 * @return the task
	 * @throws ToolArgumentsException naming what is wrong, for the model to correct
	 */
	public static String read(String arguments, int maxLength) {
		JsonNode node;
		try {
			node = AgentJson.mapper().readTree(arguments);
		}
		catch (JacksonException ex) {
			throw new ToolArgumentsException("the arguments are not a JSON object");
		}
		JsonNode task = (node != null && node.isObject()) ? node.get(NAME) : null;
		if (task == null || !task.isString() || task.asString().isBlank()) {
			throw new ToolArgumentsException("'" + NAME + "' is required and must be a non-blank string");
		}
		String text = task.asString();
		if (text.length() > maxLength) {
			throw new ToolArgumentsException("'" + NAME + "' must be at most " + maxLength + " characters, was "
					+ text.length() + "; shorten it");
		}
		return text;
	}

}
