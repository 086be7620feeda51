package dev.agcore.middleware.builtin;

import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import org.jspecify.annotations.Nullable;

/**
 * A failed attempt of a tool call, as a {@link ToolRetryMiddleware} predicate sees it.
 * Tool failures arrive as error results; the exception behind one is known when the
 * runtime reports it through {@link dev.agcore.middleware.AgentContext#toolFailure}.
 * When it does not, the exception's simple name is read from the runtime's error text
 * ({@code Error: tool 'x' failed: IllegalStateException: disk full}), so matching by type
 * then sees only the exact class, not its subclasses.
 *
 * @param call the tool call
 * @param result the error result of this attempt
 * @param cause the exception behind it, or null when unknown
 * @param attempt the number of this attempt, from 1
 */
public record ToolFailure(ToolCall call, ToolResultMessage result, @Nullable Throwable cause, int attempt) {

	private static final Pattern FAILED = Pattern.compile("^Error: tool '[^']*' failed: ([A-Za-z_$][\\w$]*)");

	private static final String TIMED_OUT = "' did not finish within ";

	public ToolFailure {
		Objects.requireNonNull(call, "'call' must not be null");
		Objects.requireNonNull(result, "'result' must not be null");
	}

	/**
	 * Return the tool name.
	 * @return the name of the tool that failed
	 */
	public String toolName() {
		return this.call.name();
	}

	/**
	 * Return the simple class name of the exception behind the failure: the cause's when
	 * known, otherwise read from the error text ({@code TimeoutException} for a timeout).
	 * @return the name, or null when the failure was not an exception (an unknown tool,
	 * invalid arguments, a call refused by middleware)
	 */
	public @Nullable String exceptionName() {
		if (this.cause != null) {
			return this.cause.getClass().getSimpleName();
		}
		String text = this.result.text();
		Matcher matcher = FAILED.matcher(text);
		if (matcher.find()) {
			return matcher.group(1);
		}
		return (text.startsWith("Error: tool '") && text.contains(TIMED_OUT)) ? TimeoutException.class.getSimpleName()
				: null;
	}

	/**
	 * Return whether the failure was caused by an exception of the given type: anywhere in
	 * the cause chain when the cause is known, by exact simple name otherwise.
	 * @param type the exception type
	 * @return whether it matches
	 */
	public boolean isCausedBy(Class<? extends Throwable> type) {
		if (this.cause == null) {
			return type.getSimpleName().equals(exceptionName());
		}
		// bounded, in case of a cyclic chain
		Throwable ex = this.cause;
		for (int depth = 0; ex != null && depth < 32; depth++, ex = ex.getCause()) {
			if (type.isInstance(ex)) {
				return true;
			}
		}
		return false;
	}

}
