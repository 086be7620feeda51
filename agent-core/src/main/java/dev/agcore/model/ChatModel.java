package dev.agcore.model;

import java.util.EnumSet;
import java.util.Set;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A chat model. Implementations are non-blocking and thread-safe; register one as a bean
 * to make it available to agents.
 */
public interface ChatModel {

	/**
	 * Send a request and emit the complete response.
	 * @param request the request
	 * @return a Mono that emits exactly one response, or fails with a
	 * {@link ModelException}
	 */
	Mono<ChatResponse> call(ChatRequest request);

	/**
	 * Send a request and emit the response as it is generated. Folding the chunks with a
	 * {@link ChatResponseAccumulator} gives the same response {@link #call} would.
	 * @param request the request
	 * @return the chunks; fails with a {@link ModelException}
	 */
	Flux<ChatChunk> stream(ChatRequest request);

	/**
	 * Return the provider name used in metrics ({@code gen_ai.provider.name}), such as
	 * {@code openai}.
	 * @return the provider name
	 */
	default String providerName() {
		return "custom";
	}

	/**
	 * Return the model requested by default, used in metrics ({@code gen_ai.request.model}).
	 * @return the model name
	 */
	default String modelName() {
		return "unknown";
	}

	/**
	 * Return what this model can do natively. The runtime falls back where a capability
	 * is missing (a JSON schema becomes instructions, for one); a request that needs what
	 * the model cannot do at all, such as an image for a text-only API, fails with a
	 * {@link ModelRequestException}.
	 * @return the capabilities; tools and streaming by default
	 */
	default Set<ModelCapability> capabilities() {
		return EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING);
	}

	/**
	 * Check that the provider is reachable and accepts the credentials, spending no
	 * tokens where the API allows (by listing models). Used by health indicators.
	 * @return a Mono that completes empty when the provider answered, or fails with a
	 * {@link ModelException}; {@link UnsupportedOperationException} when this model
	 * cannot check
	 */
	default Mono<Void> checkHealth() {
		return Mono.error(new UnsupportedOperationException(getClass().getSimpleName() + " has no health check"));
	}

}
