package dev.agcore.retrieval.lucene;

/**
 * Checks on embedding vectors before Lucene sees them.
 */
final class Vectors {

	private Vectors() {
	}

	/**
	 * Whether a vector has a direction: cosine similarity is undefined for a zero vector,
	 * and Lucene rejects non-finite components.
	 * @param vector the vector
	 * @return true if it is finite and not zero
	 */
	static boolean hasMagnitude(float[] vector) {
		double sum = 0;
		for (float component : vector) {
			if (!Float.isFinite(component)) {
				return false;
			}
			sum += component * component;
		}
		return sum > 0;
	}

}
