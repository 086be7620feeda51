package dev.agcore.provider.ollama.wire;

import tools.jackson.databind.node.ObjectNode;

/**
 * A tool offered to the model, in OpenAI's function format.
 *
 * @param type always {@code function}
 * @param function the function
 */
public record OllamaTool(String type, Function function) {

	public static OllamaTool of(String name, String description, ObjectNode parameters) {
		return new OllamaTool("function", new Function(name, description, parameters));
	}

	/**
	 * The function a tool runs.
	 *
	 * @param name the tool name
	 * @param description what the tool does
	 * @param parameters the JSON schema of the arguments object
	 */
	public record Function(String name, String description, ObjectNode parameters) {

	}

}
