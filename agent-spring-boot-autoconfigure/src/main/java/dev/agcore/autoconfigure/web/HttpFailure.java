package dev.agcore.autoconfigure.web;

import dev.agcore.budget.BudgetExceededException;
import dev.agcore.plan.PlanParseException;
import dev.agcore.runtime.AgentAccessDeniedException;
import dev.agcore.runtime.ModelNotAllowedException;
import dev.agcore.runtime.StructuredOutputException;
import dev.agcore.runtime.TurnFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

/**
 * How a failure of an agent route is reported over HTTP: a status, a stable code and a
 * message meant for the caller. The agent endpoint and the protocol adapters built on it
 * (such as the OpenAI-compatible routes) classify failures the same way.
 *
 * @param status the HTTP status
 * @param code the stable error code, such as {@code model_error}
 * @param message what went wrong, for the caller; never a stack trace
 * @since 0.1.0
 */
public record HttpFailure(HttpStatusCode status, String code, String message) {

	/**
	 * Classify a failure: one of a route ({@code 400}, {@code 404}...), of a turn
	 * ({@link TurnFailure}) or of reading the request.
	 * @param ex what failed
	 * @return how to report it, or {@code null} for an unexpected failure, whose details
	 * belong in the server log only
	 */
	public static @Nullable HttpFailure of(Throwable ex) {
		if (ex instanceof AgentHandler.ApiException api) {
			return new HttpFailure(api.status(), api.error(), api.getMessage());
		}
		HttpFailure failure = ofTurn(ex);
		return (failure != null) ? failure : ofRequest(ex);
	}

	/**
	 * Classify a failure of a turn, the same for a response and for a stream's error
	 * event.
	 * @param ex what the turn failed with
	 * @return how to report it, or {@code null} for an unexpected failure
	 */
	public static @Nullable HttpFailure ofTurn(Throwable ex) {
		TurnFailure failure = TurnFailure.of(ex);
		return (failure != null) ? new HttpFailure(status(failure.code()), failure.code(), failure.message()) : null;
	}

	private static HttpStatus status(String code) {
		return switch (code) {
			// the request asks what this model cannot do (an audio file, a PDF by URL), the
			// caller's to change; so do content refused and an invalid structured answer
			case TurnFailure.UNSUPPORTED_REQUEST, TurnFailure.UNPROCESSABLE, StructuredOutputException.CODE ->
				HttpStatus.UNPROCESSABLE_CONTENT;
			// like a gateway whose upstream (the model, a tool) did not answer in time
			case TurnFailure.TURN_TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
			// e.g. a turn of this session waits for approval; or sending again works
			case TurnFailure.CONFLICT, TurnFailure.CONVERSATION_CONFLICT -> HttpStatus.CONFLICT;
			case TurnFailure.MEMORY_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
			// a session that is not the caller's is answered as one that does not exist
			case AgentAccessDeniedException.CODE -> HttpStatus.NOT_FOUND;
			// the request named a model the agent does not allow
			case ModelNotAllowedException.CODE -> HttpStatus.BAD_REQUEST;
			// a limit of the agent, or a budget of the caller: Retry-After says when to send again
			case TurnFailure.LIMIT_EXCEEDED, BudgetExceededException.CODE -> HttpStatus.TOO_MANY_REQUESTS;
			// the model's answer: a plan that could not be read
			case TurnFailure.MODEL_ERROR, PlanParseException.CODE -> HttpStatus.BAD_GATEWAY;
			default -> HttpStatus.INTERNAL_SERVER_ERROR;
		};
	}

	/** Classify a failure to read the request, which only a response can report. */
	static @Nullable HttpFailure ofRequest(Throwable ex) {
		// the codecs' max-in-memory-size
		if (ex instanceof DataBufferLimitException) {
			return new HttpFailure(HttpStatus.CONTENT_TOO_LARGE, "content_too_large", "Request body is too large");
		}
		if (ex instanceof UnsupportedMediaTypeStatusException) {
			return new HttpFailure(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
					"Content-Type must be application/json");
		}
		if (ex instanceof ServerWebInputException) {
			return new HttpFailure(HttpStatus.BAD_REQUEST, "bad_request",
					"Malformed request body: expected a JSON object");
		}
		if (ex instanceof ResponseStatusException status && status.getStatusCode().is4xxClientError()) {
			return new HttpFailure(status.getStatusCode(), "bad_request",
					(status.getReason() != null) ? status.getReason() : "Bad request");
		}
		return null;
	}

	/**
	 * A failure with a known status and a message meant for the caller, for routes outside
	 * this package.
	 * @param status the HTTP status
	 * @param code the stable error code
	 * @param message what went wrong, for the caller
	 * @return an exception {@link #of} classifies as given
	 */
	public static RuntimeException exception(HttpStatus status, String code, String message) {
		return new AgentHandler.ApiException(status, code, message);
	}

}
