package dev.agcore.autoconfigure.web.a2a;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.agcore.a2a.server.A2aAgentCards;
import dev.agcore.a2a.server.A2aCaller;
import dev.agcore.a2a.server.A2aReply;
import dev.agcore.a2a.server.A2aServer;
import dev.agcore.a2a.server.A2aTaskStore;
import dev.agcore.autoconfigure.web.HttpFailure;
import dev.agcore.autoconfigure.web.RequestAccess;
import dev.agcore.runtime.Agent;
import dev.agcore.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Handles the A2A routes: an exposed agent's Agent Card, and its JSON-RPC endpoint,
 * answered by the agent's {@link A2aServer}. The caller, the agents' roles and the
 * sessions' owners are those of the agent endpoint ({@link RequestAccess}): an agent the
 * caller may not use, or one not exposed, is answered 404 as an unknown one is.
 */
final class A2aHandler {

	private static final Log logger = LogFactory.getLog(A2aHandler.class);

	private final RequestAccess access;

	private final A2aTaskStore tasks;

	private final @Nullable Set<String> exposed;

	private final Function<String, String> descriptions;

	private final String basePath;

	private final @Nullable String publicUrl;

	private final String version;

	private final Map<String, A2aServer> servers = new ConcurrentHashMap<>();

	A2aHandler(RequestAccess access, A2aTaskStore tasks, @Nullable Set<String> exposed,
			Function<String, String> descriptions, String basePath, @Nullable String publicUrl, String version) {
		this.access = access;
		this.tasks = tasks;
		this.exposed = exposed;
		this.descriptions = descriptions;
		this.basePath = basePath;
		this.publicUrl = publicUrl;
		this.version = version;
	}

	Mono<ServerResponse> card(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			Agent agent = agent(request, caller);
			String card = A2aAgentCards.card(agent, this.descriptions.apply(agent.name()), endpointUrl(request, agent),
					this.version);
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(card);
		});
	}

	Mono<ServerResponse> rpc(ServerRequest request) {
		return this.access.caller(request).flatMap((caller) -> {
			A2aServer server = this.servers.computeIfAbsent(agent(request, caller).name(),
					(name) -> new A2aServer(this.access.agent(name, caller), this.tasks));
			return request.bodyToMono(String.class)
				.defaultIfEmpty("")
				.flatMap((body) -> server.handle(body, new Caller(this.access, caller)))
				.flatMap((reply) -> {
					if (reply instanceof A2aReply.Stream stream) {
						return ServerResponse.ok()
							.contentType(MediaType.TEXT_EVENT_STREAM)
							.body(BodyInserters.fromServerSentEvents(
									stream.events().map((event) -> ServerSentEvent.builder(event).build())));
					}
					return ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(((A2aReply.Json) reply).body());
				});
		});
	}

	private Agent agent(ServerRequest request, RequestAccess.Caller caller) {
		String name = request.pathVariable("agent");
		if (this.exposed != null && !this.exposed.contains(name)) {
			throw HttpFailure.exception(HttpStatus.NOT_FOUND, "not_found",
					"No agent named '" + A2aHandler.bounded(name) + "' is served over A2A");
		}
		return this.access.agent(name, caller);
	}

	private String endpointUrl(ServerRequest request, Agent agent) {
		String path = this.basePath + "/" + agent.name();
		if (this.publicUrl != null) {
			return UriComponentsBuilder.fromUriString(this.publicUrl).path(path).build().toUriString();
		}
		return UriComponentsBuilder.fromUri(request.uri()).replacePath(path).replaceQuery(null).fragment(null)
			.build()
			.toUriString();
	}

	// the errors of the routes themselves (not of a JSON-RPC request): JSON-RPC shaped, never a stack trace
	Mono<ServerResponse> error(Throwable ex, ServerRequest request) {
		HttpStatusCode status;
		int code;
		String message;
		HttpFailure failure = HttpFailure.of(ex);
		if (ex instanceof DataBufferLimitException) {
			status = HttpStatus.PAYLOAD_TOO_LARGE;
			code = -32600;
			message = "The request body is too large";
		}
		else if (failure != null) {
			status = failure.status();
			code = status.is4xxClientError() ? -32600 : -32603;
			message = failure.message();
		}
		else {
			logger.error("A2A request " + request.method() + " " + LogSafe.text(request.path()) + " failed",
					LogSafe.throwable(ex));
			status = HttpStatus.INTERNAL_SERVER_ERROR;
			code = -32603;
			message = "The request failed unexpectedly; the server log has the details";
		}
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", code);
		error.put("message", message);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("jsonrpc", "2.0");
		body.put("id", null);
		body.put("error", error);
		return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).bodyValue(body);
	}

	private static String bounded(String text) {
		return (text.length() <= 100) ? text : text.substring(0, 100) + "…";
	}

	/** The caller as the A2A server sees it: its sessions are those the access rules give it. */
	private record Caller(RequestAccess access, RequestAccess.Caller caller) implements A2aCaller {

		@Override
		public @Nullable String name() {
			return this.caller.name();
		}

		@Override
		public Mono<Boolean> mayUse(String sessionId) {
			return this.access.claim(sessionId, this.caller).thenReturn(true).onErrorResume((ex) -> {
				HttpFailure failure = HttpFailure.of(ex);
				return (failure != null && failure.status().value() == 404) ? Mono.just(false) : Mono.error(ex);
			});
		}

		@Override
		public Context context() {
			return this.caller.context();
		}

	}

}
