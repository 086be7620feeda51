package dev.agcore.provider.support;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelTimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * One JSON request and its JSON answer, for the providers' non-streaming endpoints
 * (embeddings): the body is read up to a limit, an error status and any transport
 * failure become a {@link dev.agcore.model.ModelException} through {@link HttpErrors}.
 */
public final class JsonPost {

	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	private final WebClient webClient;

	private final String provider;

	private final Duration timeout;

	private final int maxResponseBytes;

	/**
	 * Create a poster.
	 * @param webClient the client
	 * @param provider the provider name, for errors
	 * @param timeout how long to wait for the whole response
	 * @param maxResponseBytes the largest response body read
	 */
	public JsonPost(WebClient webClient, String provider, Duration timeout, int maxResponseBytes) {
		this.webClient = webClient;
		this.provider = provider;
		this.timeout = timeout;
		this.maxResponseBytes = maxResponseBytes;
	}

	/**
	 * Post a body.
	 * @param uri the endpoint
	 * @param apiKey a bearer token, null or blank for none
	 * @param body the JSON body
	 * @return the response body of a 2xx answer
	 */
	public Mono<byte[]> post(URI uri, @Nullable String apiKey, byte[] body) {
		return Mono.defer(() -> this.webClient.post().uri(uri).headers((headers) -> {
			headers.setContentType(MediaType.APPLICATION_JSON);
			headers.setAccept(List.of(MediaType.APPLICATION_JSON));
			if (apiKey != null && !apiKey.isBlank()) {
				headers.setBearerAuth(apiKey.strip());
			}
		}).bodyValue(body).exchangeToMono(this::read))
			.timeout(this.timeout, Mono.error(() -> new ModelTimeoutException(this.provider,
					this.provider + " did not respond within " + this.timeout.toMillis() + " ms", null)))
			.onErrorMap((ex) -> HttpErrors.fromThrowable(this.provider, ex));
	}

	private Mono<byte[]> read(ClientResponse response) {
		int status = response.statusCode().value();
		if (!response.statusCode().is2xxSuccessful()) {
			HttpHeaders headers = response.headers().asHttpHeaders();
			return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), MAX_ERROR_BODY_BYTES)
				.map((buffer) -> new String(toBytes(buffer), StandardCharsets.UTF_8))
				.onErrorReturn("")
				.defaultIfEmpty("")
				.flatMap((text) -> Mono.error(HttpErrors.fromResponse(this.provider, status, headers, text)));
		}
		return DataBufferUtils.join(response.bodyToFlux(DataBuffer.class), this.maxResponseBytes)
			.map(JsonPost::toBytes)
			.switchIfEmpty(Mono.error(() -> new ModelResponseException(this.provider,
					this.provider + " returned HTTP " + status + " with an empty body")));
	}

	private static byte[] toBytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
