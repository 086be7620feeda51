package dev.agcore.middleware;

import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import reactor.core.publisher.Mono;

/**
 * The next layer of a model call: the next middleware, or the model itself. May be
 * called zero, one or several times.
 */
@FunctionalInterface
public interface ModelCall {

	Mono<ChatResponse> call(ChatRequest request);

}
