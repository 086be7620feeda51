package dev.agcore.tool;

import java.util.Objects;

import tools.jackson.databind.node.ObjectNode;

/**
 * What the model is told about a tool.
 *
 * @param name the tool name, unique within an agent
 * @param description what the tool does
 * @param inputSchema the JSON schema of the arguments object; treat as read-only
 */
public record ToolSpec(String name, String description, ObjectNode inputSchema) {

	public ToolSpec {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(description, "'description' must not be null");
		Objects.requireNonNull(inputSchema, "'inputSchema' must not be null");
	}

}
