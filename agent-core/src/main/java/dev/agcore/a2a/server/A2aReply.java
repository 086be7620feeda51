package dev.agcore.a2a.server;

import reactor.core.publisher.Flux;

/**
 * The answer to an A2A JSON-RPC request: one JSON-RPC response, or (for
 * {@code message/stream}) a stream of them, each to send as the data of a server-sent
 * event.
 *
 * @since 0.1.0
 */
public sealed interface A2aReply {

	/**
	 * One JSON-RPC response (a result or an error).
	 *
	 * @param body the response's JSON
	 */
	record Json(String body) implements A2aReply {

	}

	/**
	 * A stream of JSON-RPC responses, each an event of the task.
	 *
	 * @param events the responses' JSON
	 */
	record Stream(Flux<String> events) implements A2aReply {

	}

}
