package dev.agcore.benchmarks.chatpage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.Usage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An in-process model that streams the same Markdown answer to every question, its first
 * chunk after a known delay and the others at a steady pace: with no delay, the time the
 * chat page takes to show the first token is the framework's and the page's alone.
 */
final class PacedAnswerModel implements ChatModel {

	/** The answer: a sentence with emphasis, then a short list, so Markdown is rendered. */
	static final String ANSWER = "Here is **the answer**, streamed in pieces: grind a little finer, "
			+ "tamp evenly and pull the shot for about 28 seconds.\n\n- dose: 18 g\n- yield: 36 g\n"
			+ "- water: 93 °C\n\nEnjoy the coffee.";

	private final Duration firstChunkDelay;

	private final Duration chunkInterval;

	private final List<String> pieces;

	private final Runnable onStream;

	/**
	 * Create a model.
	 * @param firstChunkDelay the wait before the first chunk
	 * @param chunkInterval the wait before each further chunk
	 * @param chunks the chunks of the answer
	 * @param onStream told when a stream is subscribed to
	 */
	PacedAnswerModel(Duration firstChunkDelay, Duration chunkInterval, int chunks, Runnable onStream) {
		this.firstChunkDelay = firstChunkDelay;
		this.chunkInterval = chunkInterval;
		this.pieces = split(ANSWER, chunks);
		this.onStream = onStream;
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		ChatResponse response = new ChatResponse(AssistantMessage.of(ANSWER), Usage.of(40, 40), FinishReason.STOP,
				"paced-answer");
		return this.firstChunkDelay.isZero() ? Mono.just(response)
				: Mono.delay(this.firstChunkDelay).thenReturn(response);
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		Flux<ChatChunk> first = Flux.just(ChatChunk.text(this.pieces.get(0)));
		Flux<ChatChunk> rest = Flux.fromIterable(this.pieces.subList(1, this.pieces.size())).map(ChatChunk::text);
		if (!this.chunkInterval.isZero()) {
			rest = rest.delayElements(this.chunkInterval);
		}
		Flux<ChatChunk> chunks = first.concatWith(rest)
			.concatWithValues(new ChatChunk("", List.of(), Usage.of(40, 40), FinishReason.STOP, "paced-answer"));
		chunks = this.firstChunkDelay.isZero() ? chunks : Mono.delay(this.firstChunkDelay).thenMany(chunks);
		return chunks.doOnSubscribe((subscription) -> this.onStream.run());
	}

	@Override
	public String providerName() {
		return "paced-answer";
	}

	@Override
	public String modelName() {
		return "paced-answer";
	}

	// whole words, as evenly as they go: as many pieces as asked, or one per word when fewer
	static List<String> split(String text, int chunks) {
		List<String> words = new ArrayList<>();
		int start = 0;
		while (start < text.length()) {
			int space = text.indexOf(' ', start);
			int end = (space < 0) ? text.length() : space + 1;
			words.add(text.substring(start, end));
			start = end;
		}
		int count = Math.min(chunks, words.size());
		List<String> pieces = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			pieces.add(String.join("", words.subList(i * words.size() / count, (i + 1) * words.size() / count)));
		}
		return List.copyOf(pieces);
	}

}
