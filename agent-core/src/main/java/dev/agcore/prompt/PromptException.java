package dev.agcore.prompt;

import java.util.Objects;

import dev.agcore.AgentException;
import org.jspecify.annotations.Nullable;

/**
 * A template that does not parse, or cannot render with the values given. The message
 * names the template and, where it applies, the variable or partial.
 */
public class PromptException extends AgentException {

	/** What went wrong. */
	public enum Kind {

		/** The template's text is not a valid template. */
		PARSE,

		/** A variable the template prints or loops over has no value. */
		VARIABLE_NOT_FOUND,

		/** A {@code {{> partial}}} names no registered template. */
		PARTIAL_NOT_FOUND,

		/** {@code {{#each x}}} over a value that is not a list or array. */
		NOT_AN_ARRAY,

		/** Blocks and partials nest deeper than the limit, or partials include each other. */
		MAX_DEPTH,

		/** No template of that name is registered. */
		TEMPLATE_NOT_FOUND,

		/** A list of messages in an order no model accepts. */
		INVALID_SEQUENCE

	}

	private final Kind kind;

	private final @Nullable String template;

	/**
	 * Create an exception.
	 * @param kind what went wrong
	 * @param template the template's name, or {@code null} for one compiled without a name
	 * @param message what went wrong, for people
	 */
	public PromptException(Kind kind, @Nullable String template, String message) {
		super(message);
		this.kind = Objects.requireNonNull(kind, "'kind' must not be null");
		this.template = template;
	}

	/**
	 * Create an exception with a cause.
	 * @param kind what went wrong
	 * @param template the template's name, or {@code null}
	 * @param message what went wrong, for people
	 * @param cause the engine's exception
	 */
	public PromptException(Kind kind, @Nullable String template, String message, Throwable cause) {
		super(message, cause);
		this.kind = Objects.requireNonNull(kind, "'kind' must not be null");
		this.template = template;
	}

	public Kind kind() {
		return this.kind;
	}

	/** Return the name of the template at fault, or {@code null} for an unnamed one. */
	public @Nullable String template() {
		return this.template;
	}

}
