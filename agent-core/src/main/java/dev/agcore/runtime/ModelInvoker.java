package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Reasoning;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ModelAdapters;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The innermost model call of a turn, under every middleware: adapts the request to the
 * model ({@link ModelAdapter}s), calls or streams the turn's model, splits
 * {@code <think>} blocks out of its text, forwards streamed text and reasoning to the
 * caller, and records each call's duration and usage.
 */
final class ModelInvoker {

	/**
	 * Reasoning blocks split out of the text are numbered from here, apart from the
	 * blocks a provider reports itself.
	 */
	static final int THINK_BLOCK_INDEX = 1 << 20;

	private final AgentMetrics metrics;

	private final List<ModelAdapter> adapters;

	ModelInvoker(AgentMetrics metrics, List<ModelAdapter> adapters) {
		this.metrics = metrics;
		this.adapters = List.copyOf(adapters);
	}

	Mono<ChatResponse> call(ChatModel model, ChatRequest chatRequest) {
		return Mono.defer(() -> {
			ChatRequest request = adapt(model, chatRequest);
			String requestModel = requestModel(model, request);
			long start = System.nanoTime();
			return model.call(request)
				.map(ModelInvoker::splitThinking)
				.doOnSuccess((response) -> recordModelCall(model, requestModel, response.usage(), start, null))
				.doOnError((ex) -> recordModelCall(model, requestModel, Usage.EMPTY, start, ex));
		});
	}

	/**
	 * Stream the model call, forwarding text and reasoning as they arrive and adding the
	 * text to what the caller was shown; resolve to the whole response.
	 */
	Mono<ChatResponse> stream(ChatModel model, ChatRequest chatRequest, TurnListener listener, StringBuilder shown) {
		return Mono.defer(() -> {
			if (shown.length() > 0) {
				// a wrapper calls the model again: the text of the earlier call is void
				listener.onTextReset();
				shown.setLength(0);
			}
			ChatRequest request = adapt(model, chatRequest);
			String requestModel = requestModel(model, request);
			long start = System.nanoTime();
			ChatResponseAccumulator accumulator = new ChatResponseAccumulator(model.providerName());
			ThinkSplitter splitter = new ThinkSplitter();
			boolean[] first = { true };
			return model.stream(request).doOnNext((chunk) -> {
				if (first[0]) {
					first[0] = false;
					this.metrics.modelFirstChunk(model.providerName(), requestModel, System.nanoTime() - start);
				}
				ChatChunk.ReasoningDelta reasoning = chunk.reasoning();
				if (reasoning != null && !reasoning.textDelta().isEmpty() && listener.streaming()) {
					listener.onReasoning(reasoning.textDelta());
				}
				if (chunk.textDelta().isEmpty()) {
					accumulator.add(chunk);
					return;
				}
				List<ThinkSplitter.Piece> pieces = splitter.feed(chunk.textDelta());
				accumulator.add(new ChatChunk(text(pieces), chunk.toolCalls(), chunk.usage(), chunk.finishReason(),
						chunk.model(), chunk.reasoning(), chunk.refusalDelta()));
				forward(pieces, accumulator, listener, shown);
			}).then(Mono.fromCallable(() -> {
				forward(splitter.finish(), accumulator, listener, shown);
				return accumulator.toResponse();
			})).doOnSuccess((response) -> {
				recordModelCall(model, requestModel, response.usage(), start, null);
			}).doOnError((ex) -> recordModelCall(model, requestModel, Usage.EMPTY, start, ex));
		});
	}

	private ChatRequest adapt(ChatModel model, ChatRequest request) {
		return this.adapters.isEmpty() ? request
				: ModelAdapters.apply(this.adapters, model.providerName(), requestModel(model, request), request);
	}

	/** The model name recorded in metrics: the one the request options name, else the model's. */
	private static String requestModel(ChatModel model, ChatRequest request) {
		String named = request.options().model();
		return (named != null) ? named : model.modelName();
	}

	/** Text pieces to the caller; reasoning pieces to the accumulator and the caller. */
	private static void forward(List<ThinkSplitter.Piece> pieces, ChatResponseAccumulator accumulator,
			TurnListener listener, StringBuilder shown) {
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning()) {
				accumulator.add(ChatChunk.reasoning(THINK_BLOCK_INDEX + piece.block(), piece.text()));
				if (listener.streaming()) {
					listener.onReasoning(piece.text());
				}
			}
			else if (listener.streaming()) {
				shown.append(piece.text());
				listener.onText(piece.text());
			}
		}
	}

	private static String text(List<ThinkSplitter.Piece> pieces) {
		if (pieces.size() == 1 && !pieces.get(0).reasoning()) {
			return pieces.get(0).text();
		}
		StringBuilder text = new StringBuilder();
		for (ThinkSplitter.Piece piece : pieces) {
			if (!piece.reasoning()) {
				text.append(piece.text());
			}
		}
		return text.toString();
	}

	/** A whole response's {@code <think>} blocks, moved from its text to its reasoning. */
	static ChatResponse splitThinking(ChatResponse response) {
		AssistantMessage message = response.message();
		if (!message.text().contains(ThinkSplitter.OPEN)) {
			return response;
		}
		List<ThinkSplitter.Piece> pieces = ThinkSplitter.split(message.text());
		List<Reasoning> reasoning = new ArrayList<>(message.reasoning());
		StringBuilder block = new StringBuilder();
		int current = -1;
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning()) {
				if (piece.block() != current && block.length() > 0) {
					reasoning.add(Reasoning.of(block.toString()));
					block.setLength(0);
				}
				current = piece.block();
				block.append(piece.text());
			}
		}
		if (block.length() > 0) {
			reasoning.add(Reasoning.of(block.toString()));
		}
		AssistantMessage split = new AssistantMessage(text(pieces), message.toolCalls(), reasoning, message.refusal());
		return new ChatResponse(split, response.usage(), response.finishReason(), response.model());
	}

	private void recordModelCall(ChatModel model, String requestModel, Usage usage, long start,
			@Nullable Throwable error) {
		this.metrics.modelCall(model.providerName(), requestModel, usage, System.nanoTime() - start, error);
	}

}
