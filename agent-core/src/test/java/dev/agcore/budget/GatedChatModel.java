package dev.agcore.budget;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A model that reports a known usage, and that holds every call at a gate until the test
 * opens it, so that concurrent turns are all in flight at once.
 */
final class GatedChatModel implements ChatModel {

	private final Sinks.Empty<Void> gate = Sinks.empty();

	private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

	private final AtomicLong totalTokens;

	private volatile Consumer<ChatRequest> onCall = (request) -> {
	};

	GatedChatModel(long totalTokens) {
		this.totalTokens = new AtomicLong(totalTokens);
	}

	/** A model whose gate is open from the start. */
	static GatedChatModel open(long totalTokens) {
		GatedChatModel model = new GatedChatModel(totalTokens);
		model.open();
		return model;
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		return Mono.defer(() -> {
			this.requests.add(request);
			this.onCall.accept(request);
			long total = this.totalTokens.get();
			return this.gate.asMono()
				.then(Mono.fromSupplier(() -> new ChatResponse(AssistantMessage.of("ok"),
						new Usage(total * 3 / 4, total - total * 3 / 4, total), FinishReason.STOP, "gated")));
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		return call(request).flatMapIterable(dev.agcore.testing.ScriptedChatModel::chunks);
	}

	/** Let every waiting call, and every later one, answer. */
	void open() {
		this.gate.tryEmitEmpty();
	}

	/** Run this in each call, before it waits at the gate. */
	void onCall(Consumer<ChatRequest> onCall) {
		this.onCall = onCall;
	}

	void usage(long totalTokens) {
		this.totalTokens.set(totalTokens);
	}

	List<ChatRequest> requests() {
		return this.requests;
	}

}
