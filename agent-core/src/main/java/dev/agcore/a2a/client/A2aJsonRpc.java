package dev.agcore.a2a.client;

import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.a2a.spec.AgentCard;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.EventKind;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCResponse;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskResubscriptionRequest;
import io.a2a.util.Utils;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * The A2A 0.3 JSON-RPC binding, as one remote is spoken to: its Agent Card,
 * {@code message/send}, {@code message/stream} and {@code tasks/resubscribe} (server-sent
 * events) and {@code tasks/cancel}, on the same {@link WebClient} the model providers use.
 * Requests and responses are the A2A SDK's spec types, written and read with its own
 * (Jackson 2) mapper. Every request carries the remote's configured headers.
 * <p>
 * A request is tried again once only when its connection could not be opened, so the
 * remote never saw it; see {@link #connectRetry()}.
 */
final class A2aJsonRpc {

	private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE = new ParameterizedTypeReference<>() {
	};

	/** How long before the one retry of a request whose connection could not be opened. */
	private static final Duration RETRY_DELAY = Duration.ofMillis(200);

	private final A2aRemote remote;

	private final WebClient client;

	A2aJsonRpc(A2aRemote remote, WebClient client) {
		this.remote = remote;
		this.client = client;
	}

	/** The remote's Agent Card; a GET, so any failure to connect may be retried. */
	Mono<AgentCard> card() {
		return this.client.get()
			.uri(this.remote.cardUrl())
			.headers((headers) -> this.remote.headers().forEach(headers::set))
			.accept(MediaType.APPLICATION_JSON)
			.retrieve()
			.bodyToMono(String.class)
			.map((body) -> read(body, AgentCard.class, "its Agent Card"))
			.retryWhen(connectRetry());
	}

	/** {@code message/send}: the task as it ended (or paused), or the remote's message. */
	Mono<EventKind> send(URI endpoint, MessageSendParams params) {
		String body = Utils.toJsonString(new SendMessageRequest(UUID.randomUUID().toString(), params));
		return post(endpoint, body, MediaType.APPLICATION_JSON).bodyToMono(String.class)
			.flatMap((text) -> result(read(text, SendMessageResponse.class, "message/send")))
			// not retried once the request may have been sent: see connectRetry
			.retryWhen(connectRetry());
	}

	/** {@code message/stream}: the task's events as the remote sends them. */
	Flux<StreamingEventKind> stream(URI endpoint, MessageSendParams params) {
		String body = Utils.toJsonString(new SendStreamingMessageRequest(UUID.randomUUID().toString(), params));
		return events(endpoint, body, "message/stream");
	}

	/** {@code tasks/resubscribe}: the rest of a task's events, after a lost stream. */
	Flux<StreamingEventKind> resubscribe(URI endpoint, String taskId) {
		String body = Utils
			.toJsonString(new TaskResubscriptionRequest(UUID.randomUUID().toString(), new TaskIdParams(taskId)));
		return events(endpoint, body, "tasks/resubscribe");
	}

	/** {@code tasks/cancel}, whose answer does not matter to the caller. */
	Mono<Void> cancel(URI endpoint, String taskId) {
		String body = Utils.toJsonString(new CancelTaskRequest(UUID.randomUUID().toString(), new TaskIdParams(taskId)));
		return post(endpoint, body, MediaType.APPLICATION_JSON).bodyToMono(String.class).then();
	}

	private Flux<StreamingEventKind> events(URI endpoint, String body, String method) {
		return this.client.post()
			.uri(endpoint)
			.headers((headers) -> this.remote.headers().forEach(headers::set))
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchangeToFlux((response) -> events(response, method))
			// only a connection that could not be opened: the remote never saw the request
			.retryWhen(connectRetry());
	}

	private Flux<StreamingEventKind> events(ClientResponse response, String method) {
		if (!response.statusCode().is2xxSuccessful()) {
			return response.<StreamingEventKind>createError().flux();
		}
		MediaType type = response.headers().contentType().orElse(MediaType.APPLICATION_JSON);
		if (!MediaType.TEXT_EVENT_STREAM.isCompatibleWith(type)) {
			// a JSON-RPC error (or a single result) answered as plain JSON
			return response.bodyToMono(String.class)
				.flatMap((text) -> result(read(text, SendStreamingMessageResponse.class, method)))
				.flux();
		}
		return response.bodyToFlux(SSE)
			.filter((event) -> event.data() != null && !event.data().isBlank())
			.concatMap((event) -> result(read(event.data(), SendStreamingMessageResponse.class, method)));
	}

	private WebClient.ResponseSpec post(URI endpoint, String body, MediaType accept) {
		return this.client.post()
			.uri(endpoint)
			.headers((headers) -> this.remote.headers().forEach(headers::set))
			.contentType(MediaType.APPLICATION_JSON)
			.accept(accept)
			.bodyValue(body)
			.retrieve();
	}

	private static <T> Mono<T> result(JSONRPCResponse<T> response) {
		JSONRPCError error = response.getError();
		if (error != null) {
			return Mono.error(new A2aRpcException(error.getCode(), error.getMessage()));
		}
		T result = response.getResult();
		return (result != null) ? Mono.just(result)
				: Mono.error(new A2aProtocolException("a JSON-RPC response with neither result nor error"));
	}

	private static <T> T read(String text, Class<T> type, String what) {
		try {
			return Utils.OBJECT_MAPPER.readValue(text, type);
		}
		catch (JsonProcessingException | IllegalArgumentException ex) {
			throw new A2aProtocolException("an answer to " + what + " that is not A2A JSON ("
					+ ex.getClass().getSimpleName() + ")");
		}
	}

	/**
	 * One more try, shortly after, of a request whose connection could not be opened
	 * (refused, or no route): the remote never received it, so even a
	 * {@code message/send} cannot run twice. A request that failed later (a reset
	 * connection, a timeout, an error status) is not tried again here: the remote may
	 * have started the task, and sending the message again would start a second one.
	 */
	static Retry connectRetry() {
		return Retry.fixedDelay(1, RETRY_DELAY).filter(A2aJsonRpc::isConnectFailure);
	}

	static boolean isConnectFailure(Throwable ex) {
		if (!(ex instanceof WebClientRequestException)) {
			return false;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectException) {
				return true;
			}
		}
		return false;
	}

	/** A JSON-RPC error the remote answered with. */
	static final class A2aRpcException extends RuntimeException {

		private final int code;

		A2aRpcException(@Nullable Integer code, @Nullable String message) {
			super((message != null) ? message : "no message", null, false, false);
			this.code = (code != null) ? code : 0;
		}

		int code() {
			return this.code;
		}

	}

	/** An answer that is not what the protocol says. */
	static final class A2aProtocolException extends RuntimeException {

		A2aProtocolException(String message) {
			super(message, null, false, false);
		}

	}

}
