package dev.agcore.benchmarks.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.agcore.benchmarks.LoadAverage;
import reactor.netty.http.HttpResources;

/**
 * An HTTP load test of the framework against a fake OpenAI-compatible server on the
 * loopback interface ({@link FakeOpenAiServer}): closed loops of 200 and 1,000 callers
 * through each {@link Variant}, from a raw JDK {@code HttpClient} to a streamed agent
 * turn, each printed as one row of a table. See docs/performance.md, "HTTP load harness".
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.agcore.benchmarks.load.LoadHarness \
 *     --concurrency 200,1000 --delay 100ms --duration 10s
 * </pre>
 */
public final class LoadHarness {

	/** Reactor Netty's system property sizing its shared connection pool. */
	public static final String POOL_PROPERTY = "reactor.netty.pool.maxConnections";

	private LoadHarness() {
	}

	public static void main(String[] args) throws Exception {
		LoadOptions options;
		try {
			options = LoadOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(LoadOptions.USAGE);
			System.exit(2);
			return;
		}
		// read once, when Reactor Netty's ConnectionProvider is first loaded: set it before
		if (options.maxConnections() > 0 && System.getProperty(POOL_PROPERTY) == null) {
			System.setProperty(POOL_PROPERTY, Integer.toString(options.maxConnections()));
		}
		String loadBefore = LoadAverage.read();
		try (Server server = options.forkServer() ? Server.forked(options.delay()) : Server.inProcess(options.delay())) {
			List<LoadResult> results = run(options, server.baseUrl(), System.err::println);
			System.out.println(header(options, loadBefore, LoadAverage.read()));
			System.out.println(table(results));
			results.stream()
				.filter((result) -> result.firstError() != null)
				.forEach((result) -> System.out.println("- " + result.variant().id() + " at " + result.concurrency()
						+ ": " + result.errors() + " errors, first: " + result.firstError()));
		}
		System.exit(0);
	}

	/**
	 * Run every variant at every concurrency of the options against a running server.
	 * @param options the options
	 * @param baseUrl the server's API root
	 * @param progress told what is being run
	 * @return one result per round, concurrency and variant, in that order
	 * @throws InterruptedException if interrupted
	 */
	public static List<LoadResult> run(LoadOptions options, String baseUrl, Consumer<String> progress)
			throws InterruptedException {
		List<LoadResult> results = new ArrayList<>();
		Supplier<FakeOpenAiServer.Stats> server = serverStats(baseUrl);
		for (int round = 1; round <= options.rounds(); round++) {
			for (int concurrency : options.concurrencies()) {
				for (Variant variant : options.variants()) {
					progress.accept("round " + round + ": " + variant.id() + " with " + concurrency + " callers ("
							+ options.warmup().toMillis() + " ms warm-up, " + options.duration().toMillis()
							+ " ms measured)");
					Operations operations = Operations.of(variant, baseUrl);
					LoadResult result = ClosedLoopDriver.run(variant, operations, concurrency, options.delay(),
							options.warmup(), options.duration(), server);
					results.add(result);
					progress.accept(table(List.of(result)).lines().skip(2).findFirst().orElse(""));
					// the next variant starts from a collected heap and idle threads
					System.gc();
					Thread.sleep(Math.min(500, options.warmup().toMillis()));
				}
			}
		}
		return results;
	}

	private static Supplier<FakeOpenAiServer.Stats> serverStats(String baseUrl) {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl.replace("/v1", "/stats"))).build();
		return () -> {
			try {
				return FakeOpenAiServer.Stats.parse(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not read the fake server's stats", ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
		};
	}

	static String header(LoadOptions options, String loadBefore, String loadAfter) {
		Runtime runtime = Runtime.getRuntime();
		return String.format(Locale.ROOT, """
				HTTP load harness, %s
				JDK %s (%s), %d cores, max heap %d MB, JVM arguments %s
				load average (1, 5, 15 min) before %s, after %s
				fake server: %s, delay %d ms; warm-up %d ms, measured %d ms per row, %d round(s)
				Reactor Netty shared pool: %d max connections (%s=%s)
				CPU: process CPU time (OperatingSystemMXBean); threads CPU and allocation: ThreadMXBean, summed over live Java threads
				server: connections it accepted and its JVM's CPU time, in the measured window
				""", Instant.now().truncatedTo(ChronoUnit.SECONDS), System.getProperty("java.runtime.version"),
				System.getProperty("java.vm.name"), runtime.availableProcessors(), runtime.maxMemory() >> 20,
				ManagementFactory.getRuntimeMXBean().getInputArguments(), loadBefore, loadAfter,
				options.forkServer() ? "own JVM" : "this JVM", options.delay().toMillis(), options.warmup().toMillis(),
				options.duration().toMillis(), options.rounds(), HttpResources.get().maxConnections(), POOL_PROPERTY,
				System.getProperty(POOL_PROPERTY, "unset"));
	}

	/**
	 * Format results as a Markdown table, one row per concurrency and variant, each
	 * compared with the raw control at the same concurrency when it was run. Of several
	 * rounds, a row shows the round with the median throughput (of an even number, the
	 * upper median), and the range.
	 * @param results the results
	 * @return the table
	 */
	public static String table(List<LoadResult> results) {
		Map<List<Object>, List<LoadResult>> rows = new LinkedHashMap<>();
		for (LoadResult result : results) {
			rows.computeIfAbsent(List.of(result.concurrency(), result.variant()), (key) -> new ArrayList<>())
				.add(result);
		}
		Map<List<Object>, LoadResult> medians = new LinkedHashMap<>();
		rows.forEach((key, rounds) -> medians.put(key, median(rounds)));
		StringBuilder table = new StringBuilder();
		table.append("| variant | callers | req/s | % of ideal | vs raw | p50 ms | p99 ms | CPU ms/req | CPU vs raw "
				+ "| threads CPU ms/req | heap after GC MB | alloc/req KB | errors | server: connections "
				+ "| server: CPU ms/req |\n");
		table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
				+ "| ---: |\n");
		medians.forEach((key, result) -> {
			LoadResult raw = medians.get(List.of(result.concurrency(), Variant.RAW));
			List<LoadResult> rounds = rows.get(key);
			String perSecond = String.format(Locale.ROOT, "%,.0f", result.perSecond());
			if (rounds.size() > 1) {
				perSecond += String.format(Locale.ROOT, " (%,.0f–%,.0f)", rounds.get(0).perSecond(),
						rounds.get(rounds.size() - 1).perSecond());
			}
			table.append(String.format(Locale.ROOT,
					"| %s | %,d | %s | %.0f %% | %s | %.1f | %.1f | %.3f | %s | %.3f | %,d | %.1f | %,d | %,d | %.3f |%n",
					result.variant().label(), result.concurrency(), perSecond, result.percentOfIdeal(),
					(raw != null) ? String.format(Locale.ROOT, "%.0f %%", 100 * result.perSecond() / raw.perSecond())
							: "–",
					result.p50Nanos() / 1e6, result.p99Nanos() / 1e6, result.cpuMillisPerOperation(),
					(raw != null) ? String.format(Locale.ROOT, "%.2f×",
							result.cpuMillisPerOperation() / raw.cpuMillisPerOperation()) : "–",
					result.threadCpuMillisPerOperation(), result.heapAfterGcBytes() >> 20,
					result.allocatedPerOperation() / 1024, result.errors(), result.server().connections(),
					result.serverCpuMillisPerOperation()));
		});
		return table.toString();
	}

	// sorts the rounds by throughput; of two, the faster: on a shared machine other
	// processes only ever slow a round down
	private static LoadResult median(List<LoadResult> rounds) {
		rounds.sort(Comparator.comparingDouble(LoadResult::perSecond));
		return rounds.get(rounds.size() / 2);
	}

	/**
	 * The fake server, in this JVM or in its own.
	 */
	interface Server extends AutoCloseable {

		String baseUrl();

		@Override
		void close();

		static Server inProcess(Duration delay) {
			FakeOpenAiServer server = FakeOpenAiServer.start(delay);
			return new Server() {

				@Override
				public String baseUrl() {
					return server.baseUrl();
				}

				@Override
				public void close() {
					server.close();
				}

			};
		}

		// its own JVM, so that this process's CPU time and allocation are the client's alone
		static Server forked(Duration delay) throws IOException {
			String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
			Process process = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
					FakeOpenAiServer.class.getName(), "--delay", delay.toMillis() + "ms")
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			BufferedReader output = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = output.readLine();
			if (line == null || !line.startsWith("port=")) {
				process.destroy();
				throw new IllegalStateException("The fake server did not start (it printed '" + line + "')");
			}
			String baseUrl = FakeOpenAiServer.baseUrl(Integer.parseInt(line.substring("port=".length()).trim()));
			return new Server() {

				@Override
				public String baseUrl() {
					return baseUrl;
				}

				@Override
				public void close() {
					try {
						process.getOutputStream().close();
						if (!process.waitFor(10, TimeUnit.SECONDS)) {
							process.destroy();
						}
					}
					catch (IOException ex) {
						process.destroy();
					}
					catch (InterruptedException ex) {
						process.destroy();
						Thread.currentThread().interrupt();
					}
				}

			};
		}

	}

}
