package dev.agcore.provider.support;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

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
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.Exceptions;
import reactor.netty.http.client.PrematureCloseException;
import tools.jackson.core.JacksonException;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link HttpErrors}.
 */
class HttpErrorsTests {

	private static final String OPENAI_ERROR = """
			{"error": {"message": "Bad things", "type": "invalid_request_error", "param": null, "code": null}}
			""";

	@ParameterizedTest
	@ValueSource(ints = { 401, 403 })
	void authenticationFailures(int status) {
		ModelException ex = HttpErrors.fromStatus("openai", status, null, OPENAI_ERROR);
		assertThat(ex).isExactlyInstanceOf(ModelAuthenticationException.class).hasMessageContaining("Bad things");
		assertThat(ex.statusCode()).isEqualTo(status);
		assertThat(ex.provider()).isEqualTo("openai");
		assertThat(ex.isRetryable()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 404, 422 })
	void requestFailures(int status) {
		ModelException ex = HttpErrors.fromStatus("openai", status, null, OPENAI_ERROR);
		assertThat(ex).isExactlyInstanceOf(ModelRequestException.class)
			.hasMessage("openai returned HTTP " + status + " " + HttpStatus.valueOf(status).getReasonPhrase()
					+ ": Bad things");
		assertThat(ex.isRetryable()).isFalse();
	}

	@Test
	void contextLengthByCode() {
		String body = """
				{"error": {"message": "Too long", "type": "invalid_request_error", "code": "context_length_exceeded"}}
				""";
		assertThat(HttpErrors.fromStatus("openai", 400, null, body))
			.isInstanceOf(ContextLengthExceededException.class)
			.hasMessageContaining("Too long");
	}

	@Test
	void contextLengthByMessage() {
		String vllm = """
				{"object": "error", "message": "This model's maximum context length is 4096 tokens.", "code": 400}
				""";
		assertThat(HttpErrors.fromStatus("vllm", 400, null, vllm)).isInstanceOf(ContextLengthExceededException.class);
		String ollama = "{\"error\": \"input exceeds the context length of the model\"}";
		assertThat(HttpErrors.fromStatus("ollama", 422, null, ollama))
			.isInstanceOf(ContextLengthExceededException.class)
			.hasMessageContaining("input exceeds");
	}

	@Test
	void rateLimitCarriesRetryAfter() {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "7");
		ModelException ex = HttpErrors.fromResponse("openai", 429, headers, OPENAI_ERROR);
		assertThat(ex).isInstanceOf(ModelRateLimitException.class).hasMessageContaining("Bad things");
		assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(7));
		assertThat(ex.isRetryable()).isTrue();
		assertThat(HttpErrors.fromResponse("openai", 429, new HttpHeaders(), "").retryAfter()).isNull();
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 409, 500, 502, 503, 504 })
	void serverFailuresCarryRetryAfterAndNameIt(int status) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "5");
		ModelException ex = HttpErrors.fromResponse("openai", status, headers, OPENAI_ERROR);
		assertThat(ex).isInstanceOf(ModelServerException.class)
			.hasMessageEndingWith("Bad things (the server asked to retry after 5 s)");
		assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(5));
		HttpHeaders millis = new HttpHeaders();
		millis.set("retry-after-ms", "1500");
		assertThat(HttpErrors.fromResponse("openai", status, millis, "").retryAfter())
			.isEqualTo(Duration.ofMillis(1500));
		assertThat(HttpErrors.fromResponse("openai", status, new HttpHeaders(), "").retryAfter()).isNull();
	}

	@Test
	void rateLimitMessageNamesTheServersWait() {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "3600");
		assertThat(HttpErrors.fromResponse("openai", 429, headers, OPENAI_ERROR))
			.hasMessage("openai returned HTTP 429 Too Many Requests: Bad things "
					+ "(the server asked to retry after 3600 s)");
	}

	@Test
	void exhaustedQuotaIsNotRetryable() {
		String body = "{\"error\": {\"message\": \"You exceeded your current quota\", \"code\": \"insufficient_quota\"}}";
		ModelException ex = HttpErrors.fromStatus("openai", 429, null, body);
		assertThat(ex).isExactlyInstanceOf(ModelRequestException.class);
		assertThat(ex.statusCode()).isEqualTo(429);
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 409, 500, 502, 503, 504, 529 })
	void serverFailures(int status) {
		ModelException ex = HttpErrors.fromStatus("openai", status, null, "");
		assertThat(ex).isInstanceOf(ModelServerException.class);
		assertThat(ex.statusCode()).isEqualTo(status);
		assertThat(ex.isRetryable()).isTrue();
	}

	@Test
	void nonJsonBodyIsQuotedShortened() {
		ModelException ex = HttpErrors.fromStatus("openai", 502, null, "<html>" + "x".repeat(2000) + "</html>");
		assertThat(ex.getMessage()).startsWith("openai returned HTTP 502 Bad Gateway: <html>xxx").endsWith("...");
		assertThat(ex.getMessage().length()).isLessThan(600);
	}

	@Test
	void modelExceptionIsReturnedAsIs() {
		ModelException original = new ModelServerException("openai", 500, "boom");
		assertThat(HttpErrors.fromThrowable("openai", original)).isSameAs(original);
		assertThat(HttpErrors.fromThrowable("openai", Exceptions.propagate(original))).isSameAs(original);
	}

	@Test
	void webClientResponseExceptionIsMappedByStatus() {
		WebClientResponseException ex = WebClientResponseException.create(401, "Unauthorized", new HttpHeaders(),
				OPENAI_ERROR.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
		assertThat(HttpErrors.fromThrowable("openai", ex)).isInstanceOf(ModelAuthenticationException.class)
			.hasMessageContaining("Bad things");
	}

	@Test
	void transportFailuresAreConnectionExceptions() {
		assertThat(HttpErrors.fromThrowable("openai", requestException(new ConnectException("Connection refused"))))
			.isInstanceOf(ModelConnectionException.class)
			.hasMessage("Could not connect to provider 'openai'");
		assertThat(HttpErrors.fromThrowable("openai", new IOException("Connection reset by peer")))
			.isInstanceOf(ModelConnectionException.class);
		assertThat(HttpErrors.fromThrowable("openai", PrematureCloseException.TEST_EXCEPTION))
			.isInstanceOf(ModelConnectionException.class);
	}

	@Test
	void connectionFailuresDoNotNameTheAddress() {
		URI uri = URI.create("https://llm.internal.example:8443/v1/chat/completions");
		ModelException refused = HttpErrors.fromThrowable("openai", requestException(
				new ConnectException("Connection refused: llm.internal.example/10.0.0.7:8443"), uri));
		ModelException unknown = HttpErrors.fromThrowable("openai", requestException(
				new UnknownHostException("Failed to resolve 'llm.internal.example'"), uri));
		ModelException closed = HttpErrors.fromThrowable("openai",
				requestException(new IOException("Connection reset by 10.0.0.7:8443"), uri));
		ModelException connectTimeout = HttpErrors.fromThrowable("openai", requestException(
				new ConnectTimeoutException("connection timed out after 10000 ms: llm.internal.example:8443"), uri));
		assertThat(refused).isInstanceOf(ModelConnectionException.class)
			.hasMessage("Could not connect to provider 'openai'");
		assertThat(unknown).isInstanceOf(ModelConnectionException.class)
			.hasMessage("Could not connect to provider 'openai'");
		assertThat(closed).isInstanceOf(ModelConnectionException.class)
			.hasMessage("Connection to provider 'openai' failed (IOException)");
		assertThat(connectTimeout).isInstanceOf(ModelTimeoutException.class)
			.hasMessage("Could not connect to provider 'openai' in time");
		for (ModelException ex : List.of(refused, unknown, closed, connectTimeout)) {
			assertThat(ex.getMessage()).doesNotContain("llm.internal").doesNotContain("10.0.0.7").doesNotContain("8443");
		}
	}

	@Test
	void timeoutsAreTimeoutExceptions() {
		assertThat(HttpErrors.fromThrowable("openai", new TimeoutException("Did not observe any item")))
			.isInstanceOf(ModelTimeoutException.class);
		assertThat(HttpErrors.fromThrowable("openai", ReadTimeoutException.INSTANCE))
			.isInstanceOf(ModelTimeoutException.class);
		assertThat(HttpErrors.fromThrowable("openai", requestException(ReadTimeoutException.INSTANCE)))
			.isInstanceOf(ModelTimeoutException.class);
	}

	@Test
	void unreadableResponsesAreResponseExceptions() {
		JacksonException parse = catchThrowableOfType(JacksonException.class,
				() -> AgentJson.mapper().readTree("{oops"));
		assertThat(HttpErrors.fromThrowable("openai", parse)).isInstanceOf(ModelResponseException.class);
		assertThat(HttpErrors.fromThrowable("openai", new DataBufferLimitException("too big")))
			.isInstanceOf(ModelResponseException.class);
		assertThat(HttpErrors.fromThrowable("openai", new IllegalStateException("bug")))
			.isInstanceOf(ModelResponseException.class)
			.hasMessageContaining("bug");
	}

	private static WebClientRequestException requestException(Throwable cause) {
		return requestException(cause, URI.create("http://localhost/v1"));
	}

	private static WebClientRequestException requestException(Throwable cause, URI uri) {
		return new WebClientRequestException(cause, HttpMethod.POST, uri, new HttpHeaders());
	}

}
