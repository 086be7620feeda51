package dev.agcore.testing.assertj;

import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Assertions on one tool call: its arguments and, when it ran, its result.
 */
public final class ToolCallAssert extends AbstractAssert<ToolCallAssert, ToolCall> {

	private final @Nullable String result;

	private final boolean error;

	ToolCallAssert(ToolCall actual, @Nullable String result, boolean error) {
		super(actual, ToolCallAssert.class);
		this.result = result;
		this.error = error;
	}

	/**
	 * Verify that the call has an argument with the given value. Numbers are compared by
	 * value ({@code 3} equals {@code 3.0}); other values as the JSON they are written as.
	 * @param name the argument name
	 * @param expected the expected value
	 * @return this
	 */
	public ToolCallAssert withArgument(String name, @Nullable Object expected) {
		isNotNull();
		JsonNode arguments = arguments();
		JsonNode value = arguments.get(name);
		if (value == null) {
			failWithMessage("Expected the call of tool '%s' to have argument '%s', but its arguments were:%n  %s",
					this.actual.name(), name, this.actual.arguments());
			return this;
		}
		JsonNode wanted = AgentJson.mapper().valueToTree(expected);
		boolean equal = (value.isNumber() && wanted.isNumber())
				? value.decimalValue().compareTo(wanted.decimalValue()) == 0
				: value.equals(wanted);
		if (!equal) {
			failWithMessage("Expected argument '%s' of tool '%s' to be%n  %s%nbut was%n  %s", name, this.actual.name(),
					wanted, value);
		}
		return this;
	}

	/**
	 * Verify that the call ran and returned exactly this result.
	 * @param expected the result
	 * @return this
	 */
	public ToolCallAssert withResult(String expected) {
		String result = ranResult();
		if (!result.equals(expected)) {
			failWithMessage("Expected the result of tool '%s' to be%n  \"%s\"%nbut was%n  \"%s\"", this.actual.name(),
					expected, result);
		}
		return this;
	}

	/**
	 * Verify that the call ran and its result contains the given text.
	 * @param text the text
	 * @return this
	 */
	public ToolCallAssert withResultContaining(String text) {
		String result = ranResult();
		if (!result.contains(text)) {
			failWithMessage("Expected the result of tool '%s' to contain%n  \"%s\"%nbut was%n  \"%s\"",
					this.actual.name(), text, result);
		}
		return this;
	}

	/**
	 * Verify that the call ran and failed (its error text went back to the model).
	 * @return this
	 */
	public ToolCallAssert failed() {
		String result = ranResult();
		if (!this.error) {
			failWithMessage("Expected the call of tool '%s' to fail, but it returned%n  \"%s\"", this.actual.name(),
					result);
		}
		return this;
	}

	/**
	 * Verify that the call ran without error.
	 * @return this
	 */
	public ToolCallAssert succeeded() {
		String result = ranResult();
		if (this.error) {
			failWithMessage("Expected the call of tool '%s' to succeed, but it failed with%n  \"%s\"",
					this.actual.name(), result);
		}
		return this;
	}

	private String ranResult() {
		isNotNull();
		if (this.result == null) {
			failWithMessage("Expected the call of tool '%s' to have run, but it has not (it waits for approval)",
					this.actual.name());
		}
		return (this.result != null) ? this.result : "";
	}

	private JsonNode arguments() {
		try {
			return AgentJson.mapper().readTree(this.actual.arguments());
		}
		catch (JacksonException ex) {
			failWithMessage("Expected the arguments of tool '%s' to be JSON, but they were:%n  %s", this.actual.name(),
					this.actual.arguments());
			throw ex;
		}
	}

}
