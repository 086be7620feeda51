package dev.agcore.runtime;

import java.util.Objects;

import dev.agcore.memory.ConversationConflictException;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.middleware.builtin.LimitExceededException;
import dev.agcore.middleware.builtin.PiiDetectedException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.plan.PlanFailedException;
import dev.agcore.plan.PlanParseException;
import dev.agcore.prompt.PromptException;
import org.jspecify.annotations.Nullable;

/**
 * How a failed turn is reported to whoever asked for it, over HTTP or MCP: a stable code
 * and a message meant for the caller. The message never holds a stack trace, a host name
 * or a port; the server log has those.
 *
 * @param code the stable error code, such as {@value #MODEL_ERROR}
 * @param message what went wrong, for the caller
 * @since 0.1.0
 */
public record TurnFailure(String code, String message) {

	/** The model provider failed, could not be reached or did not answer in time. */
	public static final String MODEL_ERROR = "model_error";

	/** The model was not sent the request: it cannot take what the request asks for. */
	public static final String UNSUPPORTED_REQUEST = "unsupported_request";

	/** The turn ran past its deadline. */
	public static final String TURN_TIMEOUT = "turn_timeout";

	/** A turn of the session waits for approval, or there is nothing to resume. */
	public static final String CONFLICT = "conflict";

	/** Another turn of the session changed its history first; sending again works. */
	public static final String CONVERSATION_CONFLICT = "conversation_conflict";

	/** The conversation store cannot be reached; nothing of the turn was stored. */
	public static final String MEMORY_UNAVAILABLE = "memory_unavailable";

	/** Middleware refused the content, e.g. personal data it blocks. */
	public static final String UNPROCESSABLE = "unprocessable";

	/** A limit of the agent (model or tool calls) was reached. */
	public static final String LIMIT_EXCEEDED = "limit_exceeded";

	/**
	 * The agent's system prompt template cannot be rendered: a variable it needs is
	 * missing. The message names the template and the variable, never their values.
	 */
	public static final String PROMPT_ERROR = "prompt_error";

	public TurnFailure {
		Objects.requireNonNull(code, "'code' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
	}

	/**
	 * Classify a failure of a turn.
	 * @param ex what the turn failed with
	 * @return how to report it, or {@code null} for an unexpected failure, whose details
	 * belong in the server log only
	 */
	public static @Nullable TurnFailure of(Throwable ex) {
		String text = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		if (ex instanceof ModelRequestException refused && refused.statusCode() == 0) {
			// refused before anything was sent: the request asks what this model cannot do
			return new TurnFailure(UNSUPPORTED_REQUEST, text);
		}
		// host names and ports of a connection failure are nothing for the caller
		if (ex instanceof ModelConnectionException model) {
			return new TurnFailure(MODEL_ERROR,
					"The connection to the model provider '" + model.provider() + "' failed");
		}
		if (ex instanceof ModelTimeoutException model) {
			return new TurnFailure(MODEL_ERROR, "The model provider '" + model.provider() + "' did not answer in time");
		}
		if (ex instanceof ModelException model) {
			// the provider's own words help the caller; they hold no server internals
			return new TurnFailure(MODEL_ERROR,
					(ex.getMessage() != null) ? ex.getMessage() : model.provider() + " failed");
		}
		if (ex instanceof MemoryUnavailableException) {
			// database or Redis addresses are nothing for the caller
			return new TurnFailure(MEMORY_UNAVAILABLE,
					"The conversation store is unavailable; nothing of this turn was stored, try again later");
		}
		String code = code(ex);
		return (code != null) ? new TurnFailure(code, text) : null;
	}

	private static @Nullable String code(Throwable ex) {
		if (ex instanceof TurnTimeoutException) {
			return TURN_TIMEOUT;
		}
		if (ex instanceof ResumeException) {
			return CONFLICT;
		}
		if (ex instanceof ConversationConflictException) {
			return CONVERSATION_CONFLICT;
		}
		if (ex instanceof PiiDetectedException) {
			// names the kind of value and where, never the value
			return UNPROCESSABLE;
		}
		if (ex instanceof ModelNotAllowedException) {
			return ModelNotAllowedException.CODE;
		}
		if (ex instanceof StructuredOutputException) {
			return StructuredOutputException.CODE;
		}
		if (ex instanceof LimitExceededException) {
			return LIMIT_EXCEEDED;
		}
		if (ex instanceof PromptException) {
			return PROMPT_ERROR;
		}
		if (ex instanceof PlanParseException) {
			return PlanParseException.CODE;
		}
		if (ex instanceof PlanFailedException) {
			return PlanFailedException.CODE;
		}
		return null;
	}

}
