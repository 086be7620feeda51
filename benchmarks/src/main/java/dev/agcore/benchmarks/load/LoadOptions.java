package dev.agcore.benchmarks.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one run of the {@link LoadHarness} does.
 *
 * @param concurrencies the numbers of concurrent callers, one measurement each
 * @param delay how long the fake server waits before answering
 * @param warmup how long each variant runs before it is measured
 * @param duration how long each variant is measured
 * @param variants the variants to run, in order
 * @param forkServer whether the fake server runs in its own JVM (so that the measured
 * CPU and allocation are the client's alone) or in this one
 * @param maxConnections the size of Reactor Netty's shared connection pool
 * ({@code reactor.netty.pool.maxConnections}), 0 to leave Reactor Netty's default
 * @param rounds how many times to run every row, interleaved; the table shows each
 * row's median round
 */
public record LoadOptions(List<Integer> concurrencies, Duration delay, Duration warmup, Duration duration,
		List<Variant> variants, boolean forkServer, int maxConnections, int rounds) {

	static final String USAGE = """
			Options:
			  --concurrency 200,1000     concurrent callers, one measurement each (default 200,1000)
			  --delay 100ms              how long the fake server waits before answering (default 100ms)
			  --warmup 5s                run time of each variant before it is measured (default 5s)
			  --duration 10s             measured time of each variant (default 10s)
			  --variants raw,netty,call,turn,tool-turn,stream   which variants, in order (default all)
			  --server fork|in-process   the fake server in its own JVM (default) or in this one
			  --rounds 1                 runs of every row, interleaved; the table shows the median (default 1)
			  --max-connections N|default  Reactor Netty's shared pool size
			                             (reactor.netty.pool.maxConnections; default: the largest concurrency;
			                             'default' leaves Reactor Netty's own, 500 connections)
			""";

	public LoadOptions {
		concurrencies = List.copyOf(concurrencies);
		variants = List.copyOf(variants);
		if (concurrencies.isEmpty() || concurrencies.stream().anyMatch((c) -> c < 1)) {
			throw new IllegalArgumentException("'--concurrency' must list positive numbers");
		}
		if (rounds < 1) {
			throw new IllegalArgumentException("'--rounds' must be at least 1");
		}
		if (variants.isEmpty()) {
			throw new IllegalArgumentException("'--variants' must name at least one variant");
		}
	}

	/**
	 * Read the options from command-line arguments.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException naming the option that was wrong
	 */
	public static LoadOptions parse(String... args) {
		List<Integer> concurrencies = List.of(200, 1000);
		Duration delay = Duration.ofMillis(100);
		Duration warmup = Duration.ofSeconds(5);
		Duration duration = Duration.ofSeconds(10);
		List<Variant> variants = Arrays.asList(Variant.values());
		boolean fork = true;
		Integer maxConnections = null;
		int rounds = 1;
		for (int i = 0; i < args.length; i += 2) {
			String name = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("Option '" + name + "' needs a value");
			}
			String value = args[i + 1].strip();
			switch (name) {
				case "--concurrency" -> concurrencies = integers(value, name);
				case "--delay" -> delay = duration(value, name);
				case "--warmup" -> warmup = duration(value, name);
				case "--duration" -> duration = duration(value, name);
				case "--variants" -> variants = variants(value);
				case "--rounds" -> rounds = integers(value, name).get(0);
				case "--server" -> fork = switch (value) {
					case "fork" -> true;
					case "in-process" -> false;
					default -> throw new IllegalArgumentException(
							"'--server' must be 'fork' or 'in-process', not '" + value + "'");
				};
				case "--max-connections" -> maxConnections = "default".equals(value) ? 0
						: integers(value, name).get(0);
				default -> throw new IllegalArgumentException("Unknown option '" + name + "'");
			}
		}
		int pool = (maxConnections != null) ? maxConnections : concurrencies.stream().mapToInt(Integer::intValue).max()
			.orElse(0);
		return new LoadOptions(concurrencies, delay, warmup, duration, variants, fork, pool, rounds);
	}

	static Duration duration(String value, String option) {
		String text = value.strip().toLowerCase(Locale.ROOT);
		try {
			if (text.endsWith("ms")) {
				return positive(Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2))), option);
			}
			if (text.endsWith("s")) {
				return positive(Duration.ofMillis(
						Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1000)), option);
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException(
				"'" + option + "' must be a duration such as 100ms or 10s, not '" + value + "'");
	}

	private static Duration positive(Duration duration, String option) {
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException("'" + option + "' must be positive");
		}
		return duration;
	}

	private static List<Integer> integers(String value, String option) {
		List<Integer> numbers = new ArrayList<>();
		for (String part : value.split(",")) {
			try {
				numbers.add(Integer.parseInt(part.strip().replace("_", "")));
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("'" + option + "' must be a number or a list such as 200,1000, not '"
						+ value + "'");
			}
		}
		return numbers;
	}

	private static List<Variant> variants(String value) {
		List<Variant> variants = new ArrayList<>();
		for (String part : value.split(",")) {
			variants.add(Variant.named(part.strip()));
		}
		return variants;
	}

}
