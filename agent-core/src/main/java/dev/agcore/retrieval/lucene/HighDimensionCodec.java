package dev.agcore.retrieval.lucene;

import java.io.IOException;

import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's default codec with vectors of up to {@value #MAX_DIMENSIONS} dimensions instead
 * of 1024, as OpenAI's embeddings have 1536 or 3072. The files are those of the standard
 * HNSW format under its own name, so that any Lucene 9.12 reads the index back.
 */
final class HighDimensionCodec extends Lucene912Codec {

	static final int MAX_DIMENSIONS = 4096;

	private final KnnVectorsFormat vectors = new HighDimensionVectorsFormat();

	@Override
	public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
		return this.vectors;
	}

	private static final class HighDimensionVectorsFormat extends KnnVectorsFormat {

		private final KnnVectorsFormat delegate = new Lucene99HnswVectorsFormat();

		HighDimensionVectorsFormat() {
			super("Lucene99HnswVectorsFormat");
		}

		@Override
		public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
			return this.delegate.fieldsWriter(state);
		}

		@Override
		public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
			return this.delegate.fieldsReader(state);
		}

		@Override
		public int getMaxDimensions(String fieldName) {
			return MAX_DIMENSIONS;
		}

	}

}
