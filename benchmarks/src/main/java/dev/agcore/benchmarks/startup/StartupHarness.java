package dev.agcore.benchmarks.startup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Startup time of an application with the starter against the same application without
 * it ({@link StartupApp}): each launched in its own JVM with the same JVM arguments, in
 * interleaved rounds so that a machine's changing load falls on both alike, in each
 * {@link StartupMode}. Spring Boot's own startup line is read ("Started ... in X seconds
 * (process running for Y)"), with the CPU time the JVM and its main thread had used by
 * then, and the JVM is ended at once. See docs/performance.md, "Startup".
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.agcore.benchmarks.startup.StartupHarness --launches 15
 * </pre>
 *
 * The applications listen on a free port of all interfaces ({@code server.port=0}) and
 * reach no network: the agent's provider is configured with a loopback base URL that no
 * startup step calls.
 */
public final class StartupHarness {

	private static final int OUTPUT_LINES_KEPT = 40;

	private StartupHarness() {
	}

	public static void main(String[] args) throws Exception {
		StartupOptions options;
		try {
			options = StartupOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(StartupOptions.USAGE);
			System.exit(2);
			return;
		}
		String loadBefore = loadAverage();
		List<Launch> launches = run(options, System.err::println);
		System.out.println(header(options, loadBefore, loadAverage()));
		System.out.println(table(launches));
		System.exit(0);
	}

	/**
	 * Launch every application in every mode as many times as the options say. Each round
	 * launches every mode's applications once, the baseline first in odd rounds and the
	 * application with the starter first in even ones.
	 * @param options the options
	 * @param progress told of every launch
	 * @return the launches, in the order they ran
	 * @throws IOException if a JVM cannot be started
	 * @throws InterruptedException if interrupted
	 * @throws IllegalStateException if an application fails to start or takes longer than
	 * the timeout, with the end of its output
	 */
	public static List<Launch> run(StartupOptions options, Consumer<String> progress)
			throws IOException, InterruptedException {
		List<Launch> launches = new ArrayList<>();
		for (int round = 1; round <= options.launches(); round++) {
			for (StartupMode mode : options.modes()) {
				List<StartupApp> order = (round % 2 == 1) ? List.of(StartupApp.BASELINE, StartupApp.AGENT)
						: List.of(StartupApp.AGENT, StartupApp.BASELINE);
				for (StartupApp app : order) {
					Launch launch = launch(app, mode, round, options);
					launches.add(launch);
					progress.accept(String.format(Locale.ROOT,
							"round %d, %s, %s: started in %.3f s, process running for %.3f s, CPU %.2f s (main %.2f s)",
							round, mode.id(), app.id(), launch.startedSeconds(), launch.processSeconds(),
							launch.cpuSeconds(), launch.mainThreadCpuSeconds()));
				}
			}
		}
		return launches;
	}

	static Launch launch(StartupApp app, StartupMode mode, int round, StartupOptions options)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(options.jvmArguments());
		command.addAll(mode.jvmArguments());
		command.add("-cp");
		command.add(app.classPath());
		command.add(StartupApp.MAIN_CLASS);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		// a harness that is itself ended leaves no application running
		Thread reaper = new Thread(process::destroyForcibly, "startup-reaper-" + app.id());
		Runtime.getRuntime().addShutdownHook(reaper);
		Deque<String> output = new ArrayDeque<>();
		CompletableFuture<double[]> started = new CompletableFuture<>();
		Thread reader = new Thread(() -> read(process, output, started), "startup-output-" + app.id());
		reader.setDaemon(true);
		reader.start();
		try {
			double[] figures = started.get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
			return new Launch(app, mode, round, figures[0], figures[1], figures[2], figures[3]);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The " + app.id() + " application (" + mode.id() + ") did not start within "
					+ options.timeout().toSeconds() + " s; its last output:\n" + lines(output), ex);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("The " + app.id() + " application (" + mode.id()
					+ ") ended before it had started; its last output:\n" + lines(output), ex.getCause());
		}
		finally {
			stop(process);
			reader.join(TimeUnit.SECONDS.toMillis(5));
			removeShutdownHook(reaper);
		}
	}

	// reads the whole output, so that the JVM never blocks on a full pipe
	private static void read(Process process, Deque<String> output, CompletableFuture<double[]> started) {
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				synchronized (output) {
					output.addLast(line);
					if (output.size() > OUTPUT_LINES_KEPT) {
						output.removeFirst();
					}
				}
				if (!started.isDone()) {
					Launch.parse(line)
						.map((figures) -> new double[] { figures[0], figures[1], Launch.cpuSeconds(process.pid()),
								Launch.mainThreadCpuSeconds(process.pid()) })
						.ifPresent(started::complete);
				}
			}
		}
		catch (IOException ex) {
			// the process was ended
		}
		started.completeExceptionally(new IllegalStateException("No startup line before the output ended"));
	}

	private static String lines(Deque<String> output) {
		synchronized (output) {
			return String.join("\n", output);
		}
	}

	private static void removeShutdownHook(Thread reaper) {
		try {
			Runtime.getRuntime().removeShutdownHook(reaper);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs anyway
		}
	}

	// SIGTERM, the way a platform stops an application; forcibly if it takes long
	private static void stop(Process process) throws InterruptedException {
		process.destroy();
		if (!process.waitFor(15, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			process.waitFor(5, TimeUnit.SECONDS);
		}
	}

	static String header(StartupOptions options, String loadBefore, String loadAfter) {
		return String.format(Locale.ROOT, """
				Startup harness, %s
				JDK %s (%s), %d cores
				load average (1, 5, 15 min) before %s, after %s
				%d launches of each application in each mode, interleaved; JVM arguments of every launch: %s
				class path: baseline %d jars, with the starter %d jars
				""", Instant.now().truncatedTo(ChronoUnit.SECONDS), System.getProperty("java.runtime.version"),
				System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter,
				options.launches(), options.jvmArguments().isEmpty() ? "none" : String.join(" ", options.jvmArguments()),
				StartupApp.BASELINE.jars(), StartupApp.AGENT.jars());
	}

	/**
	 * Format the launches as a Markdown table: one row per mode and application, with the
	 * median, minimum and maximum of both of Spring's figures and of the two CPU times,
	 * and the ratio of the medians to the baseline's in the same mode.
	 * @param launches the launches
	 * @return the table
	 */
	public static String table(List<Launch> launches) {
		StringBuilder table = new StringBuilder();
		table.append("| mode | application | launches | Started in, median (min–max) | vs baseline "
				+ "| process running for, median (min–max) | vs baseline | CPU time, median (min–max) | vs baseline "
				+ "| main thread CPU, median (min–max) | vs baseline |\n");
		table.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (StartupMode mode : StartupMode.values()) {
			List<Launch> baseline = select(launches, mode, StartupApp.BASELINE);
			for (StartupApp app : StartupApp.values()) {
				List<Launch> rows = select(launches, mode, app);
				if (rows.isEmpty()) {
					continue;
				}
				List<Double> started = rows.stream().map(Launch::startedSeconds).toList();
				List<Double> process = rows.stream().map(Launch::processSeconds).toList();
				List<Double> cpu = rows.stream().map(Launch::cpuSeconds).toList();
				List<Double> main = rows.stream().map(Launch::mainThreadCpuSeconds).toList();
				table.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
						mode.label(), app.label(), rows.size(), spread(started),
						ratio(started, baseline.stream().map(Launch::startedSeconds).toList()), spread(process),
						ratio(process, baseline.stream().map(Launch::processSeconds).toList()), spread(cpu),
						ratio(cpu, baseline.stream().map(Launch::cpuSeconds).toList()), spread(main),
						ratio(main, baseline.stream().map(Launch::mainThreadCpuSeconds).toList())));
			}
		}
		return table.toString();
	}

	private static List<Launch> select(List<Launch> launches, StartupMode mode, StartupApp app) {
		return launches.stream().filter((launch) -> launch.mode() == mode && launch.app() == app).toList();
	}

	private static String spread(List<Double> seconds) {
		return String.format(Locale.ROOT, "%.3f s (%.3f–%.3f)", median(seconds),
				seconds.stream().mapToDouble(Double::doubleValue).min().orElse(0),
				seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0));
	}

	private static String ratio(List<Double> seconds, List<Double> baseline) {
		return baseline.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f×", median(seconds) / median(baseline));
	}

	static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
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

}
