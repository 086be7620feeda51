package dev.agcore.provider.openai.wire;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code POST /embeddings}.
 *
 * @param data one entry per input, each naming the input's index
 */
public record EmbeddingResponse(@Nullable List<Data> data) {

	/**
	 * One vector.
	 *
	 * @param index the position of its input
	 * @param embedding the vector
	 */
	public record Data(int index, float @Nullable [] embedding) {

	}

}
