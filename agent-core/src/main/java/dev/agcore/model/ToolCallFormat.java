package dev.agcore.model;

import java.util.Arrays;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How an agent offers tools to its model and reads the model's calls.
 */
public enum ToolCallFormat {

	/**
	 * XML for a model that does not report {@link ModelCapability#TOOLS}, native for
	 * every other: the default, the same as {@link #NATIVE} for the built-in providers.
	 */
	AUTO("auto"),

	/** The provider's tool (function) calling API. */
	NATIVE("native"),

	/**
	 * Tools described in the system prompt, calls written by the model as
	 * {@code <use_tool>} blocks in its text and parsed out of it (see
	 * {@code dev.agcore.model.xml}); for models without native tool calling.
	 */
	XML("xml");

	private final String id;

	ToolCallFormat(String id) {
		this.id = id;
	}

	/**
	 * Return the id used in configuration.
	 * @return the id, such as {@code xml}
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return whether calls to a model go through the XML format.
	 * @param model the model called
	 * @return whether to describe tools in the prompt and parse calls from the text
	 */
	public boolean usesXml(ChatModel model) {
		return this == XML || (this == AUTO && !model.capabilities().contains(ModelCapability.TOOLS));
	}

	/**
	 * Find a format by its id, ignoring case.
	 * @param value the id
	 * @return the format, or null when there is none by that id
	 */
	public static @Nullable ToolCallFormat find(String value) {
		String id = value.strip().toLowerCase(Locale.ROOT);
		return Arrays.stream(values()).filter((format) -> format.id.equals(id)).findFirst().orElse(null);
	}

	@Override
	public String toString() {
		return this.id;
	}

}
