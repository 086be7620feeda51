package dev.agcore.middleware.builtin;

import java.util.Objects;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import org.jspecify.annotations.Nullable;

/**
 * A failed attempt of a tool call, as a {@link ToolRetryMiddleware} predicate sees it.
 * Tool failures arrive as error results; the runtime reports the exception behind one
 * through {@link dev.agcore.middleware.AgentContext#toolFailure} (a
 * {@link java.util.concurrent.TimeoutException} for a call that overran its timeout).
 * Failures with no exception (an unknown tool, a denied call, a call refused by
 * middleware) have no cause.
 *
 * @param call the tool call
 * @param result the error result of this attempt
 * @param cause the exception behind it, or null when unknown
 * @param attempt the number of this attempt, from 1
 */
public record ToolFailure(ToolCall call, ToolResultMessage result, @Nullable Throwable cause, int attempt) {

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
	 * Return the simple class name of the exception behind the failure.
	 * @return the name, or null when the failure was not an exception
	 */
	public @Nullable String exceptionName() {
		return (this.cause != null) ? this.cause.getClass().getSimpleName() : null;
	}

	/**
	 * Return whether the failure was caused by an exception of the given type, anywhere
	 * in its cause chain.
	 * @param type the exception type
	 * @return whether it matches
	 */
	public boolean isCausedBy(Class<? extends Throwable> type) {
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
