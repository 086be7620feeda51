package dev.agcore.provider.gemini.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;

import dev.agcore.json.AgentJson;
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.provider.support.HttpErrors;
import dev.agcore.provider.support.RetryAfter;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;

/**
 * Maps Gemini's error bodies, {@code {"error": {"code", "message", "status",
 * "details"}}}, to {@link ModelException}s through {@link HttpErrors}, adding what only
 * Gemini says: the wait of a {@code google.rpc.RetryInfo} detail (preferred to
 * {@code Retry-After}), an invalid API key reported as HTTP 400 ({@code API_KEY_INVALID}),
 * which is an authentication failure, and a prompt over the model's input limit, which
 * is a context length failure.
 */
public final class GeminiErrors {

	private static final String RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

	private GeminiErrors() {
	}

	/**
	 * Map an error response.
	 * @param provider the provider name
	 * @param statusCode the HTTP status
	 * @param headers the response headers
	 * @param body the response body, empty when there was none
	 * @return the exception
	 */
	public static ModelException fromResponse(String provider, int statusCode, HttpHeaders headers, String body) {
		JsonNode error = parse(body);
		Duration retryAfter = retryDelay(error);
		if (retryAfter == null) {
			retryAfter = RetryAfter.fromHeaders(headers);
		}
		return fromError(provider, statusCode, retryAfter, body, error);
	}

	/**
	 * Map an error object sent in a stream, where the HTTP status was 200.
	 * @param provider the provider name
	 * @param error the {@code error} object
	 * @param body the whole event, for the message
	 * @return the exception
	 */
	public static ModelException fromStreamError(String provider, JsonNode error, String body) {
		int code = error.path("code").asInt(0);
		// without a code the stream broke on the server's side: worth a retry
		return fromError(provider, (code >= 400) ? code : 500, retryDelay(error), body, error);
	}

	private static ModelException fromError(String provider, int statusCode, @Nullable Duration retryAfter,
			String body, JsonNode error) {
		ModelException mapped = HttpErrors.fromStatus(provider, statusCode, retryAfter, body);
		if (statusCode == 400 && mapped instanceof ModelRequestException) {
			if (hasReason(error, "API_KEY_INVALID")) {
				return new ModelAuthenticationException(provider, statusCode, mapped.getMessage());
			}
			String message = error.path("message").asString("").toLowerCase(Locale.ROOT);
			if (message.contains("exceeds the maximum number of tokens")
					|| message.contains("input token count") && message.contains("exceeds")) {
				return new ContextLengthExceededException(provider, statusCode, mapped.getMessage(), null);
			}
		}
		return mapped;
	}

	private static boolean hasReason(JsonNode error, String reason) {
		for (JsonNode detail : error.path("details")) {
			if (reason.equals(detail.path("reason").asString(""))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the wait of a {@code RetryInfo} detail, such as {@code "retryDelay": "37s"}
	 * or {@code "12.5s"}.
	 * @param error the {@code error} object
	 * @return the wait, or null when there is none or it is unreadable
	 */
	static @Nullable Duration retryDelay(JsonNode error) {
		for (JsonNode detail : error.path("details")) {
			if (RETRY_INFO.equals(detail.path("@type").asString(""))) {
				String delay = detail.path("retryDelay").asString("").strip();
				if (delay.endsWith("s") && delay.length() > 1) {
					try {
						BigDecimal seconds = new BigDecimal(delay.substring(0, delay.length() - 1));
						if (seconds.signum() < 0) {
							return null;
						}
						return Duration.ofMillis(
								seconds.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact());
					}
					catch (NumberFormatException | ArithmeticException ex) {
						return null;
					}
				}
			}
		}
		return null;
	}

	private static JsonNode parse(String body) {
		if (!body.isBlank()) {
			try {
				JsonNode root = AgentJson.mapper().readTree(body);
				// an error streamed as a JSON array of one object (alt=json streaming)
				if (root.isArray() && !root.isEmpty()) {
					root = root.get(0);
				}
				JsonNode error = root.path("error");
				if (error.isObject()) {
					return error;
				}
			}
			catch (JacksonException ex) {
				// the status alone says enough
			}
		}
		return AgentJson.mapper().createObjectNode();
	}

}
