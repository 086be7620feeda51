package dev.agcore.mcp;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A prompt template an MCP server offers, as {@code prompts/list} describes it.
 *
 * @param name the prompt's name, which {@link McpConnection#getPrompt} takes
 * @param title a name for people, or {@code null}
 * @param description what it is for, or {@code null}
 * @param arguments the arguments it takes
 * @since 0.1.0
 */
public record McpPrompt(String name, @Nullable String title, @Nullable String description, List<Argument> arguments) {

	public McpPrompt {
		Objects.requireNonNull(name, "'name' must not be null");
		arguments = List.copyOf(arguments);
	}

	/**
	 * An argument of a prompt.
	 *
	 * @param name the argument's name
	 * @param description what it means, or {@code null}
	 * @param required whether the prompt needs it
	 */
	public record Argument(String name, @Nullable String description, boolean required) {

		public Argument {
			Objects.requireNonNull(name, "'name' must not be null");
		}

	}

}
