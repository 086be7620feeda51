package dev.agcore.embedding;

import java.util.List;

import reactor.core.publisher.Mono;

/**
 * Turns texts into vectors whose distance reflects how close their meanings are: the
 * embedding channel of retrieval. Implementations are thread-safe and never block the
 * calling thread.
 *
 * @since 0.1.0
 */
public interface EmbeddingModel {

	/**
	 * Embed texts, in one request where the model allows it.
	 * @param texts the texts, not empty
	 * @return one vector per text, in the order of the texts, each of {@link #dimensions()}
	 * components
	 */
	Mono<List<float[]>> embed(List<String> texts);

	/**
	 * Embed one text.
	 * @param text the text
	 * @return its vector
	 */
	default Mono<float[]> embed(String text) {
		return embed(List.of(text)).map((vectors) -> vectors.get(0));
	}

	/**
	 * Return the number of components of each vector.
	 * @return the dimensions
	 */
	int dimensions();

	/**
	 * Return a name for the model, as used in logs and to tell indexes built with other
	 * models apart.
	 * @return the name
	 */
	String name();

}
