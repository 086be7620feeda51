package dev.agcore.prompt;

import java.util.Map;
import java.util.Objects;

/**
 * A compiled prompt template of a {@link PromptTemplates} registry, whose other templates
 * it may include as partials. Thread-safe.
 */
public final class PromptTemplate {

	private final PromptTemplates registry;

	private final String name;

	private final String text;

	PromptTemplate(PromptTemplates registry, String name, String text) {
		this.registry = registry;
		this.name = name;
		this.text = text;
	}

	/**
	 * Compile a template on its own, with no partials to include.
	 * @param text the template
	 * @return the template, named {@code inline}
	 * @throws PromptException if the text does not parse
	 */
	public static PromptTemplate compile(String text) {
		return new PromptTemplates().register("inline", text);
	}

	public String name() {
		return this.name;
	}

	/** Return the template as written. */
	public String text() {
		return this.text;
	}

	/**
	 * Render the template.
	 * @param variables the values of its variables: strings, numbers, booleans, lists,
	 * arrays, maps, records and beans
	 * @return the text
	 * @throws PromptException if a variable is missing, an {@code each} is over something
	 * that is not a list, a partial is missing, or partials nest too deep
	 */
	public String render(Map<String, ?> variables) {
		Objects.requireNonNull(variables, "'variables' must not be null");
		return this.registry.render(this.name, variables);
	}

	/** Return the template as written, like the seed's {@code Display}. */
	@Override
	public String toString() {
		return this.text;
	}

}
