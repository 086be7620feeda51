package dev.agcore.model;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Whether and which tool the model must call in its next answer.
 *
 * @param mode the mode
 * @param toolName the tool the model must call, only with {@link Mode#TOOL}
 */
public record ToolChoice(Mode mode, @Nullable String toolName) {

	/** The model decides (the providers' default). */
	public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);

	/** The model must not call tools. */
	public static final ToolChoice NONE = new ToolChoice(Mode.NONE, null);

	/** The model must call at least one tool. */
	public static final ToolChoice REQUIRED = new ToolChoice(Mode.REQUIRED, null);

	public ToolChoice {
		Objects.requireNonNull(mode, "'mode' must not be null");
		if ((mode == Mode.TOOL) != (toolName != null && !toolName.isBlank())) {
			throw new IllegalArgumentException("A tool name is given exactly when the mode is TOOL");
		}
	}

	/**
	 * The model must call the named tool.
	 * @param name the tool name
	 * @return the choice
	 */
	public static ToolChoice tool(String name) {
		return new ToolChoice(Mode.TOOL, name);
	}

	/**
	 * Parse {@code auto}, {@code none}, {@code required} or a tool name.
	 * @param value the value
	 * @return the choice
	 */
	public static ToolChoice parse(String value) {
		String trimmed = value.strip();
		return switch (trimmed) {
			case "auto" -> AUTO;
			case "none" -> NONE;
			case "required", "any" -> REQUIRED;
			default -> tool(trimmed);
		};
	}

	/** How the model may use tools. */
	public enum Mode {

		/** The model decides. */
		AUTO,
		/** No tool calls. */
		NONE,
		/** At least one tool call. */
		REQUIRED,
		/** A call of {@link ToolChoice#toolName()}. */
		TOOL

	}

}
