package dev.agcore.runtime;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The innermost model call of a turn, under every middleware: calls or streams the agent's
 * model, forwards streamed text to the caller, and records each call's duration and usage.
 */
final class ModelInvoker {

	private final ChatModel model;

	private final AgentMetrics metrics;

	/** The model name recorded in metrics: the one the request options name, else the model's. */
	private final String requestModel;

	ModelInvoker(ChatModel model, AgentMetrics metrics, String requestModel) {
		this.model = model;
		this.metrics = metrics;
		this.requestModel = requestModel;
	}

	Mono<ChatResponse> call(ChatRequest chatRequest) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.model.call(chatRequest)
				.doOnSuccess((response) -> recordModelCall(response.usage(), start, null))
				.doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	/**
	 * Stream the model call, forwarding text as it arrives and adding it to what the caller
	 * was shown; resolve to the whole response.
	 */
	Mono<ChatResponse> stream(ChatRequest chatRequest, TurnListener listener, StringBuilder shown) {
		return Mono.defer(() -> {
			if (shown.length() > 0) {
				// a wrapper calls the model again: the text of the earlier call is void
				listener.onTextReset();
				shown.setLength(0);
			}
			long start = System.nanoTime();
			ChatResponseAccumulator accumulator = new ChatResponseAccumulator(this.model.providerName());
			return this.model.stream(chatRequest).doOnNext((chunk) -> {
				accumulator.add(chunk);
				if (!chunk.textDelta().isEmpty() && listener.streaming()) {
					shown.append(chunk.textDelta());
					listener.onText(chunk.textDelta());
				}
			}).then(Mono.fromCallable(accumulator::toResponse)).doOnSuccess((response) -> {
				recordModelCall(response.usage(), start, null);
			}).doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	private void recordModelCall(Usage usage, long start, @Nullable Throwable error) {
		this.metrics.modelCall(this.model.providerName(), this.requestModel, usage, System.nanoTime() - start,
				error);
	}

}
