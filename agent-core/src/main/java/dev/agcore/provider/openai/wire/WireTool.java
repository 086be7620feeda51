package dev.agcore.provider.openai.wire;

import tools.jackson.databind.node.ObjectNode;

/**
 * A tool offered to the model.
 *
 * @param type always {@code function}
 * @param function the function
 */
public record WireTool(String type, Function function) {

	public static WireTool of(String name, String description, ObjectNode parameters) {
		return new WireTool("function", new Function(name, description, parameters));
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
