package dev.agcore.autoconfigure.web.openai;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.web.HttpFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * A failure answered in OpenAI's error shape,
 * {@code {"error": {"message", "type", "param", "code"}}}.
 */
final class OpenAiError extends RuntimeException {

	private final HttpStatusCode status;

	private final String code;

	private final @Nullable String param;

	OpenAiError(HttpStatusCode status, String code, @Nullable String param, String message) {
		// an expected outcome, not a bug: no stack trace to fill
		super(message, null, false, false);
		this.status = status;
		this.code = code;
		this.param = param;
	}

	static OpenAiError badRequest(@Nullable String param, String message) {
		return new OpenAiError(HttpStatus.BAD_REQUEST, "invalid_request", param, message);
	}

	static OpenAiError of(HttpFailure failure) {
		return new OpenAiError(failure.status(), failure.code(), null, failure.message());
	}

	HttpStatusCode status() {
		return this.status;
	}

	/** The body: OpenAI's error object, its type from the status as OpenAI's are. */
	Map<String, Object> body() {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("message", getMessage());
		error.put("type", type());
		error.put("param", this.param);
		error.put("code", this.code);
		return Map.of("error", error);
	}

	private String type() {
		if (this.status.value() == HttpStatus.TOO_MANY_REQUESTS.value()) {
			return "rate_limit_error";
		}
		if (this.status.value() == HttpStatus.UNAUTHORIZED.value()) {
			return "authentication_error";
		}
		return this.status.is4xxClientError() ? "invalid_request_error" : "server_error";
	}

}
