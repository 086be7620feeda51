package dev.agcore.autoconfigure.web;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the agent and run routes of a started context with a {@link WebTestClient}, as a
 * client of the docs does: post, get, stream a turn, and read a run's events, from the
 * start or after a {@code Last-Event-ID}.
 */
public final class RunRoutes {

	/** How long a call or a stream may take. */
	public static final Duration TIMEOUT = Duration.ofSeconds(10);

	private RunRoutes() {
	}

	/**
	 * A client of the context's agent and workflow routes.
	 * @param context the started context
	 * @return the client
	 */
	public static WebTestClient client(ApplicationContext context) {
		RouterFunction<?> router = context.getBean("agentRouterFunction", RouterFunction.class);
		return WebTestClient.bindToRouterFunction(router).configureClient().responseTimeout(TIMEOUT).build();
	}

	public static JsonNode post(WebTestClient client, String uri, Object body, HttpStatus status) {
		return client.post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
	}

	public static JsonNode get(WebTestClient client, String uri, HttpStatus status) {
		return client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
	}

	/**
	 * Read a run until it has a status: a run's last event is stored just before its
	 * status, so a client that saw the event may read the old status for a moment.
	 * @param client the client
	 * @param uri the run's path
	 * @param status the status awaited
	 * @return the run with that status; fails after {@link #TIMEOUT}
	 */
	public static JsonNode awaitStatus(WebTestClient client, String uri, String status) {
		long end = System.nanoTime() + TIMEOUT.toNanos();
		JsonNode run = get(client, uri, HttpStatus.OK);
		while (!run.get("status").asString().equals(status)) {
			assertThat(System.nanoTime()).as("run %s to be %s, is %s", uri, status, run).isLessThan(end);
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			run = get(client, uri, HttpStatus.OK);
		}
		return run;
	}

	/**
	 * Read a run's events until its stream ends.
	 * @param client the client
	 * @param uri the events route
	 * @param lastEventId the last event seen, or {@code null} for all
	 * @return the events
	 */
	public static List<ServerSentEvent<String>> events(WebTestClient client, String uri,
			@Nullable String lastEventId) {
		return client.get()
			.uri(uri)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.headers((headers) -> {
				if (lastEventId != null) {
					headers.set("Last-Event-ID", lastEventId);
				}
			})
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(TIMEOUT);
	}

	/**
	 * Post a request to a streaming route and read its events until the stream ends.
	 * @param context the started context
	 * @param uri the route, e.g. {@code /agents/assistant/stream}
	 * @param body the request
	 * @return the events
	 */
	public static List<ServerSentEvent<String>> stream(ApplicationContext context, String uri, Object body) {
		return client(context).post()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(TIMEOUT);
	}

}
