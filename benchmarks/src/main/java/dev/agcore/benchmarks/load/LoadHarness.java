package dev.agcore.benchmarks.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

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
		String loadBefore = loadAverage();
		try (Server server = options.forkServer() ? Server.forked(options.delay()) : Server.inProcess(options.delay())) {
			List<LoadResult> results = run(options, server.baseUrl(), System.err::println);
			System.out.println(header(options, loadBefore, loadAverage()));
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
	 * @return one result per concurrency and variant, in that order
	 * @throws InterruptedException if interrupted
	 */
	public static List<LoadResult> run(LoadOptions options, String baseUrl, Consumer<String> progress)
			throws InterruptedException {
		List<LoadResult> results = new ArrayList<>();
		for (int concurrency : options.concurrencies()) {
			for (Variant variant : options.variants()) {
				progress.accept("running " + variant.id() + " with " + concurrency + " callers ("
						+ options.warmup().toMillis() + " ms warm-up, " + options.duration().toMillis() + " ms measured)");
				Operations operations = Operations.of(variant, baseUrl);
				results.add(ClosedLoopDriver.run(variant, operations, concurrency, options.delay(), options.warmup(),
						options.duration()));
				// the next variant starts from a collected heap and idle threads
				System.gc();
				Thread.sleep(Math.min(500, options.warmup().toMillis()));
			}
		}
		return results;
	}

	static String header(LoadOptions options, String loadBefore, String loadAfter) {
		Runtime runtime = Runtime.getRuntime();
		return String.format(Locale.ROOT, """
				HTTP load harness, %s
				JDK %s (%s), %d cores, max heap %d MB, JVM arguments %s
				load average (1, 5, 15 min) before %s, after %s
				fake server: %s, delay %d ms; warm-up %d ms, measured %d ms per row
				Reactor Netty shared pool: %d max connections (%s=%s)
				CPU: process CPU time; allocation: ThreadMXBean per-thread allocated bytes, summed over live threads
				""", Instant.now().truncatedTo(ChronoUnit.SECONDS), System.getProperty("java.runtime.version"),
				System.getProperty("java.vm.name"), runtime.availableProcessors(), runtime.maxMemory() >> 20,
				ManagementFactory.getRuntimeMXBean().getInputArguments(), loadBefore, loadAfter,
				options.forkServer() ? "own JVM" : "this JVM", options.delay().toMillis(), options.warmup().toMillis(),
				options.duration().toMillis(), HttpResources.get().maxConnections(), POOL_PROPERTY,
				System.getProperty(POOL_PROPERTY, "unset"));
	}

	/**
	 * Format results as a Markdown table, each row compared with the raw control at the
	 * same concurrency when it was run.
	 * @param results the results
	 * @return the table
	 */
	public static String table(List<LoadResult> results) {
		StringBuilder table = new StringBuilder();
		table.append("| variant | callers | req/s | % of ideal | vs raw | p50 ms | p99 ms | CPU ms/req | CPU vs raw "
				+ "| heap after GC MB | alloc/req KB | errors |\n");
		table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (LoadResult result : results) {
			LoadResult raw = results.stream()
				.filter((other) -> other.variant() == Variant.RAW && other.concurrency() == result.concurrency())
				.findFirst()
				.orElse(null);
			table.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %.0f %% | %s | %.1f | %.1f | %.3f | %s | %,d | %.1f | %,d |%n",
					result.variant().label(), result.concurrency(), result.perSecond(), result.percentOfIdeal(),
					(raw != null) ? String.format(Locale.ROOT, "%.0f %%", 100 * result.perSecond() / raw.perSecond())
							: "–",
					result.p50Nanos() / 1e6, result.p99Nanos() / 1e6, result.cpuMillisPerOperation(),
					(raw != null) ? String.format(Locale.ROOT, "%.2f×",
							result.cpuMillisPerOperation() / raw.cpuMillisPerOperation()) : "–",
					result.heapAfterGcBytes() >> 20, result.allocatedPerOperation() / 1024, result.errors()));
		}
		return table.toString();
	}

	private static String loadAverage() {
		Path loadavg = Paths.get("/proc/loadavg");
		try {
			if (Files.isReadable(loadavg)) {
				String[] fields = Files.readString(loadavg).trim().split("\\s+");
				return fields[0] + ", " + fields[1] + ", " + fields[2];
			}
		}
		catch (IOException ex) {
			// fall back to the 1-minute figure
		}
		return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
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
