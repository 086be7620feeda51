package dev.agcore.benchmarks.memory;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
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
 * An in-process model whose answers have a fixed size, each a new string as a decoded
 * response would be. Streamed, an answer comes in a fixed number of chunks, and while the
 * model is {@linkplain #hold() held} every stream stops after its first half until
 * {@linkplain #release() released}: so that many turns can be caught in flight, each with
 * the part of its answer it has received.
 */
final class HeldStreamModel implements ChatModel {

	private static final String PROSE = "The espresso machine heats its boiler to about ninety-three degrees, "
			+ "and the grinder should be set a little finer when the shots run fast. ";

	private final int answerChars;

	private final int chunks;

	private volatile Mono<Void> gate = Mono.empty();

	private volatile Sinks.Empty<Void> held = Sinks.empty();

	HeldStreamModel(int answerChars, int chunks) {
		this.answerChars = answerChars;
		this.chunks = chunks;
	}

	/** Hold every stream started from now on after its first half. */
	void hold() {
		this.held = Sinks.empty();
		this.gate = this.held.asMono();
	}

	/** Let the held streams finish, on the calling thread, and stop holding new ones. */
	void release() {
		this.gate = Mono.empty();
		this.held.tryEmitEmpty();
	}

	/** Return how many chunks of a stream arrive before it is held. */
	int chunksBeforeHold() {
		return this.chunks / 2;
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		return Mono.fromSupplier(() -> new ChatResponse(AssistantMessage.of(answer(question(request))), Usage.of(600, 120),
				FinishReason.STOP, "held-stream"));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		return Flux.defer(() -> {
			String question = question(request);
			int half = chunksBeforeHold();
			// each chunk is made as it is sent: a held stream keeps no part of its answer
			// that a real model would not have sent yet
			return pieces(question, 0, half).concatWith(this.gate.thenMany(pieces(question, half, this.chunks)))
				.concatWith(Mono.fromSupplier(
						() -> new ChatChunk("", List.of(), Usage.of(600, 120), FinishReason.STOP, "held-stream")));
		});
	}

	private Flux<ChatChunk> pieces(String question, int from, int to) {
		return Flux.range(from, to - from).map((index) -> {
			String answer = answer(question);
			int size = Math.max(1, answer.length() / this.chunks);
			int end = (index == this.chunks - 1) ? answer.length() : Math.min(answer.length(), (index + 1) * size);
			return ChatChunk.text(answer.substring(Math.min(end, index * size), end));
		});
	}

	@Override
	public String providerName() {
		return "held-stream";
	}

	@Override
	public String modelName() {
		return "held-stream";
	}

	private static String question(ChatRequest request) {
		List<Message> messages = request.messages();
		return (messages.get(messages.size() - 1) instanceof UserMessage user) ? user.text() : "";
	}

	// a new string per answer, of the configured size, naming the question it answers
	private String answer(String question) {
		StringBuilder answer = new StringBuilder(this.answerChars);
		answer.append("On '").append(question, 0, Math.min(24, question.length())).append("': ");
		while (answer.length() < this.answerChars) {
			answer.append(PROSE, 0, Math.min(PROSE.length(), this.answerChars - answer.length()));
		}
		answer.setLength(this.answerChars);
		return answer.toString();
	}

}
