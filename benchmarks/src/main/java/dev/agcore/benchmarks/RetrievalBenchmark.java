package dev.agcore.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.retrieval.lucene.LuceneDocumentIndex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

/**
 * Top-10 retrieval from an on-disk {@link LuceneDocumentIndex} of 10,000 or 100,000
 * documents, by keywords (BM25), by vector (HNSW) and by both fused, as
 * {@link LuceneDocumentIndex#retrieve} is called (the hop to Lucene's thread included).
 * <p>
 * The documents are synthetic: 40 words drawn with a Zipf-like skew from a vocabulary of
 * 20,000, and a random unit vector of 384 dimensions (all-MiniLM-L6-v2's) derived from
 * the text, since embedding 100,000 texts with a real model takes too long here. Query
 * embedding is thus near free: add the model's own latency (a few milliseconds for a
 * short query with the in-process MiniLM, a network round trip for an API). The index is built once per size
 * in {@code java.io.tmpdir} and reused by later runs; its size on disk is printed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class RetrievalBenchmark {

	private static final int DIMENSIONS = 384;

	private static final int VOCABULARY = 20_000;

	private static final int WORDS_PER_DOCUMENT = 40;

	private static final int BATCH = 2_000;

	@Param({ "10000", "100000" })
	public int size;

	@Param({ "keyword", "vector", "hybrid" })
	public String channel;

	private LuceneDocumentIndex index;

	private Retriever retriever;

	private List<SearchRequest> queries;

	private int next;

	@Setup(Level.Trial)
	public void open() throws IOException {
		Path directory = Path.of(System.getProperty("java.io.tmpdir"), "agcore-retrieval-benchmark-" + this.size);
		this.index = LuceneDocumentIndex.builder().path(directory).embeddingModel(new RandomUnitVectors()).build();
		if (this.index.size() != this.size) {
			// left over from an interrupted build: start again
			this.index.close();
			deleteRecursively(directory);
			this.index = LuceneDocumentIndex.builder().path(directory).embeddingModel(new RandomUnitVectors()).build();
			build();
		}
		System.out.printf("%nIndex of %,d documents: %,.1f MB on disk in %s%n", this.index.size(),
				sizeOf(directory) / 1e6, directory);
		this.retriever = switch (this.channel) {
			case "keyword" -> this.index.keywordChannel();
			case "vector" -> this.index.vectorChannel();
			default -> this.index;
		};
		Random random = new Random(7);
		this.queries = new ArrayList<>();
		for (int i = 0; i < 1_000; i++) {
			this.queries.add(SearchRequest.of(text(random, 3)));
		}
	}

	@Benchmark
	public List<ScoredDocument> topTen() {
		SearchRequest query = this.queries.get(this.next++ % this.queries.size());
		return this.retriever.retrieve(query).block();
	}

	@TearDown(Level.Trial)
	public void close() {
		this.index.close();
	}

	private void build() {
		Random random = new Random(42);
		long start = System.nanoTime();
		for (int from = 0; from < this.size; from += BATCH) {
			List<Document> batch = new ArrayList<>(BATCH);
			for (int i = from; i < Math.min(from + BATCH, this.size); i++) {
				batch.add(new Document("doc-" + i, text(random, 5), "", text(random, WORDS_PER_DOCUMENT),
						Map.of("shard", String.valueOf(i % 10))));
			}
			this.index.add(batch).block();
		}
		System.out.printf("%nIndexed %,d documents in %.1f s%n", this.size, (System.nanoTime() - start) / 1e9);
	}

	private static void deleteRecursively(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
	}

	// words "w0".."w19999", low numbers far more frequent, as in natural text
	private static String text(Random random, int words) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < words; i++) {
			double u = random.nextDouble();
			int word = (int) Math.floor(Math.pow(VOCABULARY, u)) - 1;
			text.append(i > 0 ? " " : "").append('w').append(word);
		}
		return text.toString();
	}

	private static long sizeOf(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			return files.filter(Files::isRegularFile).mapToLong((file) -> {
				try {
					return Files.size(file);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}).sum();
		}
	}

	/**
	 * Stands in for a 384-dimension model: a random unit vector seeded by the text.
	 */
	static final class RandomUnitVectors implements EmbeddingModel {

		@Override
		public Mono<List<float[]>> embed(List<String> texts) {
			return Mono.fromSupplier(() -> texts.stream().map(RandomUnitVectors::vector).toList());
		}

		private static float[] vector(String text) {
			SplittableRandom random = new SplittableRandom(text.hashCode());
			float[] vector = new float[DIMENSIONS];
			double norm = 0;
			for (int i = 0; i < DIMENSIONS; i++) {
				vector[i] = (float) (random.nextDouble() * 2 - 1);
				norm += vector[i] * vector[i];
			}
			float scale = (float) (1 / Math.sqrt(norm));
			for (int i = 0; i < DIMENSIONS; i++) {
				vector[i] *= scale;
			}
			return vector;
		}

		@Override
		public int dimensions() {
			return DIMENSIONS;
		}

		@Override
		public String name() {
			return "random-unit-384";
		}

	}

}
