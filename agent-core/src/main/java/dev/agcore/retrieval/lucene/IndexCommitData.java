package dev.agcore.retrieval.lucene;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

import dev.agcore.embedding.EmbeddingModel;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.jspecify.annotations.Nullable;

/**
 * The embedding model an index was built with, kept in its commits, so that an index is
 * never searched with vectors of another model: their distances would mean nothing.
 */
final class IndexCommitData {

	static final String MODEL = "agcore.embedding.model";

	static final String DIMENSIONS = "agcore.embedding.dimensions";

	private static final String NONE = "none";

	private IndexCommitData() {
	}

	/**
	 * Fail if the index in a directory holds documents embedded by another model, or none.
	 * @param directory the directory
	 * @param location the directory's path, for the message
	 * @param model the model it is opened with, null for none
	 * @throws IllegalStateException if the models differ
	 */
	static void check(Directory directory, String location, @Nullable EmbeddingModel model) throws IOException {
		if (!DirectoryReader.indexExists(directory)) {
			return;
		}
		try (DirectoryReader reader = DirectoryReader.open(directory)) {
			if (reader.numDocs() == 0) {
				return;
			}
		}
		Map<String, String> data = SegmentInfos.readLatestCommit(directory).getUserData();
		String builtWith = describe(data.getOrDefault(MODEL, NONE), data.get(DIMENSIONS));
		String openedWith = (model != null) ? describe(model.name(), String.valueOf(model.dimensions()))
				: describe(NONE, null);
		if (!builtWith.equals(openedWith)) {
			throw new IllegalStateException("The Lucene index at " + location + " was built with embedding model "
					+ builtWith + " but is opened with " + openedWith
					+ "; vectors of different models cannot be compared. Configure the model it was built with, "
					+ "or delete the directory to rebuild the index");
		}
	}

	/**
	 * Record the model in the index's next commit, and commit.
	 * @param writer the writer
	 * @param model the model, null for none
	 */
	static void record(IndexWriter writer, @Nullable EmbeddingModel model) throws IOException {
		Map<String, String> data = (model != null)
				? Map.of(MODEL, model.name(), DIMENSIONS, String.valueOf(model.dimensions()))
				: Map.of(MODEL, NONE);
		writer.setLiveCommitData(data.entrySet(), true);
		writer.commit();
	}

	private static String describe(String model, @Nullable String dimensions) {
		return NONE.equals(model) ? "'none' (keyword search only)"
				: "'" + model + "' (" + Objects.requireNonNullElse(dimensions, "?") + " dimensions)";
	}

}
