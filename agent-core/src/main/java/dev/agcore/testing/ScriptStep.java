package dev.agcore.testing;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a {@link ScriptedChatModel} does for one request: answer with a response (streamed
 * by splitting it as a server would), stream the given chunks, or fail; each after an
 * optional delay.
 *
 * @param delay how long to wait before answering
 * @param answer the response, computed from the request; null when the step streams
 * chunks or fails
 * @param chunks the chunks to stream when there is no answer
 * @param error the error to fail with, after the chunks; null for none
 */
record ScriptStep(Duration delay, @Nullable Function<ChatRequest, ChatResponse> answer, List<ChatChunk> chunks,
		@Nullable Throwable error) {

	ScriptStep {
		chunks = List.copyOf(chunks);
	}

	static ScriptStep answer(Function<ChatRequest, ChatResponse> answer) {
		return new ScriptStep(Duration.ZERO, answer, List.of(), null);
	}

	ScriptStep delayed(Duration delay) {
		return new ScriptStep(delay, this.answer, this.chunks, this.error);
	}

	Mono<ChatResponse> call(ChatRequest request) {
		Mono<ChatResponse> response;
		if (this.answer != null) {
			Function<ChatRequest, ChatResponse> answer = this.answer;
			response = Mono.fromSupplier(() -> answer.apply(request));
		}
		else {
			// a call gives what folding the stream gives, or the stream's error
			response = stream(request).reduce(new ChatResponseAccumulator("scripted"), ChatResponseAccumulator::add)
				.map(ChatResponseAccumulator::toResponse);
		}
		return this.delay.isZero() ? response : Mono.delay(this.delay).then(response);
	}

	Flux<ChatChunk> stream(ChatRequest request) {
		Flux<ChatChunk> chunks;
		if (this.answer != null) {
			Function<ChatRequest, ChatResponse> answer = this.answer;
			chunks = Mono.fromSupplier(() -> answer.apply(request)).flatMapIterable(ScriptedChatModel::chunks);
		}
		else {
			chunks = Flux.fromIterable(this.chunks);
			if (this.error != null) {
				chunks = chunks.concatWith(Mono.error(this.error));
			}
		}
		return this.delay.isZero() ? chunks : Mono.delay(this.delay).thenMany(chunks);
	}

}
