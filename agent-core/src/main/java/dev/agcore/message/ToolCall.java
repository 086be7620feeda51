package dev.agcore.message;

import java.util.Objects;

/**
 * A request from the model to run one tool.
 *
 * @param id the call id chosen by the model, echoed back in the {@link ToolResultMessage}
 * @param name the tool name
 * @param arguments the arguments as a JSON object text, exactly as the model sent them
 */
public record ToolCall(String id, String name, String arguments) {

	public ToolCall {
		Objects.requireNonNull(id, "'id' must not be null");
		Objects.requireNonNull(name, "'name' must not be null");
		arguments = (arguments == null || arguments.isBlank()) ? "{}" : arguments;
	}

}
