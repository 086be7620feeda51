package dev.agcore.benchmarks.chatpage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * What {@link ChatPageLatency} measures: how many page loads and sends, how the model
 * paces its answer, and which Chromium drives the page.
 *
 * @param loads the page loads timed, the first with an empty cache
 * @param warmupSends the messages sent first, not timed: the server's streaming path is
 * loaded and compiled by then, as in an application that has served a few turns
 * @param sends the messages sent and timed, one after the other, in the same session
 * @param firstChunkDelay how long the model waits before its first chunk
 * @param chunkInterval how long it waits before each further chunk
 * @param chunks the chunks of an answer
 * @param chromium the Chromium executable
 * @param chromedriver the chromedriver executable
 */
record ChatPageOptions(int loads, int warmupSends, int sends, Duration firstChunkDelay, Duration chunkInterval,
		int chunks, Path chromium, Path chromedriver) {

	/** Debian's Chromium, as {@code apt-get install chromium chromium-driver} installs it. */
	static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	/** Debian's chromedriver, of the same version as its Chromium. */
	static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	static final String USAGE = """
			usage: ChatPageLatency [--loads 10] [--warmup-sends 5] [--sends 20] [--first-chunk-delay 0ms]
			                       [--chunk-interval 10ms] [--chunks 20] [--chromium /usr/bin/chromium]
			                       [--chromedriver /usr/bin/chromedriver]
			""";

	ChatPageOptions {
		atLeast("--loads", loads, 1);
		atLeast("--warmup-sends", warmupSends, 0);
		atLeast("--sends", sends, 1);
		atLeast("--chunks", chunks, 1);
	}

	/**
	 * Read options from the command line; those not given are the run.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException naming the option that is wrong
	 */
	static ChatPageOptions parse(String... args) {
		int loads = 10;
		int warmupSends = 5;
		int sends = 20;
		Duration firstChunkDelay = Duration.ZERO;
		Duration chunkInterval = Duration.ofMillis(10);
		int chunks = 20;
		Path chromium = CHROMIUM;
		Path chromedriver = CHROMEDRIVER;
		for (int i = 0; i < args.length; i += 2) {
			String name = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("'" + name + "' needs a value");
			}
			String value = args[i + 1];
			switch (name) {
				case "--loads" -> loads = number(name, value);
				case "--warmup-sends" -> warmupSends = number(name, value);
				case "--sends" -> sends = number(name, value);
				case "--first-chunk-delay" -> firstChunkDelay = duration(name, value);
				case "--chunk-interval" -> chunkInterval = duration(name, value);
				case "--chunks" -> chunks = number(name, value);
				case "--chromium" -> chromium = Path.of(value);
				case "--chromedriver" -> chromedriver = Path.of(value);
				default -> throw new IllegalArgumentException("Unknown option '" + name + "'");
			}
		}
		return new ChatPageOptions(loads, warmupSends, sends, firstChunkDelay, chunkInterval, chunks, chromium, chromedriver);
	}

	private static int number(String name, String value) {
		try {
			return Integer.parseInt(value.replace("_", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + name + "' must be a number (was '" + value + "')");
		}
	}

	// 0ms, 150ms, 1.5s; zero is allowed: a model that answers at once
	private static Duration duration(String name, String value) {
		String text = value.strip().toLowerCase(Locale.ROOT);
		try {
			if (text.endsWith("ms")) {
				return nonNegative(name, Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2))));
			}
			if (text.endsWith("s")) {
				return nonNegative(name,
						Duration.ofMillis(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1000)));
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException("'" + name + "' must be a duration such as 0ms or 1.5s (was '" + value + "')");
	}

	private static Duration nonNegative(String name, Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("'" + name + "' must not be negative (was " + duration + ")");
		}
		return duration;
	}

	private static void atLeast(String name, int value, int least) {
		if (value < least) {
			throw new IllegalArgumentException("'" + name + "' must be at least " + least + " (was " + value + ")");
		}
	}

}
