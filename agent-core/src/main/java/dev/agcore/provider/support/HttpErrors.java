package dev.agcore.provider.support;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import dev.agcore.json.AgentJson;
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Exceptions;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import org.springframework.core.codec.CodecException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * The single place that turns what went wrong in an HTTP model call, an error status or
 * a transport failure, into a {@link ModelException}, so no raw WebClient or Netty
 * exception reaches the user.
 */
public final class HttpErrors {

	private static final Logger logger = LoggerFactory.getLogger(HttpErrors.class);

	private static final int MAX_BODY_IN_MESSAGE = 500;

	private HttpErrors() {
	}

	/**
	 * Map an error response.
	 * @param provider the provider name, such as {@code openai}
	 * @param statusCode the HTTP status
	 * @param headers the response headers, read for {@code Retry-After} (and on a 429 for
	 * OpenAI's {@code x-ratelimit-reset-*})
	 * @param body the response body, empty when there was none
	 * @return the exception
	 */
	public static ModelException fromResponse(String provider, int statusCode, HttpHeaders headers, String body) {
		return fromStatus(provider, statusCode, RetryAfter.fromHeaders(headers, statusCode), body);
	}

	/**
	 * Map an error status. 401/403 are authentication errors; 400, 404, 422 and other 4xx
	 * are request errors, or {@link ContextLengthExceededException} when the provider
	 * says the context is too long; 429 is a rate limit; 408, 409 and 5xx are server
	 * errors. The server's wait, when it gave one, is kept by the retryable ones and named
	 * in the message.
	 * @param provider the provider name, such as {@code openai}
	 * @param statusCode the HTTP status
	 * @param retryAfter the wait the server asked for, if any
	 * @param body the response body, empty when there was none
	 * @return the exception
	 */
	public static ModelException fromStatus(String provider, int statusCode, @Nullable Duration retryAfter,
			String body) {
		Objects.requireNonNull(provider, "'provider' must not be null");
		ProviderError error = ProviderError.parse(body);
		String message = message(provider, statusCode, error, body, retryAfter);
		if (statusCode == 401 || statusCode == 403) {
			return new ModelAuthenticationException(provider, statusCode, message);
		}
		if (statusCode == 429) {
			// an exhausted quota is not cured by waiting
			return "insufficient_quota".equals(error.code()) ? new ModelRequestException(provider, statusCode, message)
					: new ModelRateLimitException(provider, message, retryAfter);
		}
		if (statusCode == 408 || statusCode == 409 || statusCode >= 500) {
			return new ModelServerException(provider, statusCode, message, retryAfter, null);
		}
		if (statusCode >= 400) {
			return error.isContextLengthExceeded()
					? new ContextLengthExceededException(provider, statusCode, message, null)
					: new ModelRequestException(provider, statusCode, message);
		}
		return new ModelResponseException(provider, "Unexpected " + message);
	}

	/**
	 * Map any failure of a model call. A {@link ModelException} is returned as is.
	 * Timeouts become {@link ModelTimeoutException}; refused, reset or prematurely closed
	 * connections and other I/O errors become {@link ModelConnectionException}; JSON and
	 * decoding errors and anything unknown become {@link ModelResponseException}.
	 * <p>
	 * A connection failure's message never names the provider's host or port, as it may
	 * reach an HTTP response; each failure is logged once at WARN with them instead.
	 * @param provider the provider name, such as {@code openai}
	 * @param failure the failure
	 * @return the exception
	 */
	public static ModelException fromThrowable(String provider, Throwable failure) {
		Objects.requireNonNull(provider, "'provider' must not be null");
		Throwable ex = Exceptions.unwrap(failure);
		if (ex instanceof ModelException modelException) {
			return modelException;
		}
		if (ex instanceof WebClientResponseException response) {
			return fromResponse(provider, response.getStatusCode().value(), response.getHeaders(),
					response.getResponseBodyAsString());
		}
		boolean connecting = isConnecting(ex);
		if (isTimeout(ex)) {
			if (connecting) {
				String message = "Could not connect to provider '" + provider + "' in time";
				logConnectionFailure(message, ex);
				return new ModelTimeoutException(provider, message, ex);
			}
			return new ModelTimeoutException(provider, provider + " did not answer in time: " + describe(ex), ex);
		}
		if (ex instanceof WebClientRequestException || hasCause(ex, IOException.class)) {
			// the transport's own text often holds the address: only the root's type is kept
			String message = connecting ? "Could not connect to provider '" + provider + "'"
					: "Connection to provider '" + provider + "' failed (" + rootCause(ex).getClass().getSimpleName()
							+ ")";
			logConnectionFailure(message, ex);
			return new ModelConnectionException(provider, message, ex);
		}
		if (hasCause(ex, JacksonException.class) || hasCause(ex, CodecException.class)
				|| ex instanceof DataBufferLimitException) {
			return new ModelResponseException(provider, provider + " sent an unreadable response: " + describe(ex), ex);
		}
		return new ModelResponseException(provider, "Unexpected failure calling " + provider + ": " + describe(ex), ex);
	}

	// failures to open the connection, as opposed to one that broke once open
	private static boolean isConnecting(Throwable ex) {
		return hasCause(ex, ConnectException.class) || hasCause(ex, UnknownHostException.class)
				|| hasCause(ex, NoRouteToHostException.class);
	}

	private static void logConnectionFailure(String message, Throwable ex) {
		URI uri = (ex instanceof WebClientRequestException request) ? request.getUri() : null;
		String address = (uri != null && uri.getHost() != null) ? " (address " + uri.getHost() + ":" + port(uri) + ")"
				: "";
		logger.warn("{}{}: {}", LogSafe.text(message), LogSafe.text(address), LogSafe.text(describe(ex)));
		logger.debug("Connection failure", LogSafe.throwable(ex));
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

	private static Throwable rootCause(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	private static boolean isTimeout(Throwable ex) {
		// matched by name so that Netty's timeouts (not java.util.concurrent ones) are
		// recognized without depending on a connector
		for (Throwable t = ex; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			for (Class<?> type = t.getClass(); type != null; type = type.getSuperclass()) {
				if (type.getSimpleName().endsWith("TimeoutException")) {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
		for (Throwable t = ex; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (type.isInstance(t)) {
				return true;
			}
		}
		return false;
	}

	private static String describe(Throwable ex) {
		Throwable root = rootCause(ex);
		String message = (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
		return (root != ex && ex.getMessage() != null && !ex.getMessage().contains(message))
				? ex.getMessage() + " (" + message + ")" : message;
	}

	private static String message(String provider, int statusCode, ProviderError error, String body,
			@Nullable Duration retryAfter) {
		HttpStatus status = HttpStatus.resolve(statusCode);
		StringBuilder message = new StringBuilder(provider).append(" returned HTTP ").append(statusCode);
		if (status != null) {
			message.append(' ').append(status.getReasonPhrase());
		}
		if (error.message() != null) {
			message.append(": ").append(error.message());
		}
		else if (!body.isBlank()) {
			String trimmed = body.strip();
			message.append(": ")
				.append((trimmed.length() > MAX_BODY_IN_MESSAGE) ? trimmed.substring(0, MAX_BODY_IN_MESSAGE) + "..."
						: trimmed);
		}
		if (retryAfter != null) {
			// a wait too long to retry fails the call at once: the caller needs to know it
			message.append(" (the server asked to retry after ").append(RetryAfter.format(retryAfter)).append(')');
		}
		return message.toString();
	}

	/**
	 * What an error body says, in any of the shapes servers use:
	 * {@code {"error":{"message","type","code"}}} (OpenAI; Anthropic's has no code),
	 * {@code {"error":"..."}} (Ollama) or {@code {"message":"...","code":...}} (vLLM).
	 */
	private record ProviderError(@Nullable String message, @Nullable String code, @Nullable String type) {

		private static final ProviderError NONE = new ProviderError(null, null, null);

		static ProviderError parse(String body) {
			if (body.isBlank()) {
				return NONE;
			}
			try {
				JsonNode root = AgentJson.mapper().readTree(body);
				JsonNode error = root.path("error");
				if (error.isObject()) {
					return new ProviderError(text(error.get("message")), text(error.get("code")),
							text(error.get("type")));
				}
				if (error.isString()) {
					return new ProviderError(error.stringValue(), null, null);
				}
				return new ProviderError(text(root.get("message")), text(root.get("code")), text(root.get("type")));
			}
			catch (JacksonException ex) {
				return NONE;
			}
		}

		private static @Nullable String text(@Nullable JsonNode node) {
			if (node == null || node.isNull() || node.isContainer()) {
				return null;
			}
			String text = node.asString();
			return text.isBlank() ? null : text;
		}

		boolean isContextLengthExceeded() {
			if ("context_length_exceeded".equals(this.code) || "context_length_exceeded".equals(this.type)) {
				return true;
			}
			String text = (this.message != null) ? this.message.toLowerCase(Locale.ROOT) : "";
			return text.contains("context length") || text.contains("context_length_exceeded")
					|| text.contains("context window") || text.contains("prompt is too long");
		}

	}

}
