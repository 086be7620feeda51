package dev.agcore.benchmarks.startup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one run of the {@link StartupHarness} does.
 *
 * @param launches how many times each application is launched in each mode, interleaved
 * @param modes the modes, in order: plain JVM, AOT-processed on the JVM
 * @param jvmArguments extra arguments of every launched JVM (the same for every launch)
 * @param timeout how long one launch may take to log that it started before it is ended
 * and the run fails
 */
public record StartupOptions(int launches, List<StartupMode> modes, List<String> jvmArguments, Duration timeout) {

	static final String USAGE = """
			Options:
			  --launches 15              launches of each application in each mode, interleaved (default 15)
			  --modes jvm,aot            plain JVM and/or AOT-processed (-Dspring.aot.enabled=true) (default both)
			  --jvm-args "-Xmx512m ..."  extra arguments of every launched JVM, split at spaces (default none)
			  --timeout 180s             how long one launch may take to start (default 180s)
			""";

	public StartupOptions {
		modes = List.copyOf(modes);
		jvmArguments = List.copyOf(jvmArguments);
		if (launches < 1) {
			throw new IllegalArgumentException("'--launches' must be at least 1");
		}
		if (modes.isEmpty()) {
			throw new IllegalArgumentException("'--modes' must name at least one mode");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("'--timeout' must be positive");
		}
	}

	/**
	 * Read the options from command-line arguments.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException naming the option that was wrong
	 */
	public static StartupOptions parse(String... args) {
		int launches = 15;
		List<StartupMode> modes = Arrays.asList(StartupMode.values());
		List<String> jvmArguments = List.of();
		Duration timeout = Duration.ofSeconds(180);
		for (int i = 0; i < args.length; i += 2) {
			String name = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("Option '" + name + "' needs a value");
			}
			String value = args[i + 1].strip();
			switch (name) {
				case "--launches" -> launches = number(value, name);
				case "--modes" -> modes = modes(value);
				case "--jvm-args" -> jvmArguments = value.isEmpty() ? List.of() : List.of(value.split("\\s+"));
				case "--timeout" -> timeout = seconds(value, name);
				default -> throw new IllegalArgumentException("Unknown option '" + name + "'");
			}
		}
		return new StartupOptions(launches, modes, jvmArguments, timeout);
	}

	private static int number(String value, String option) {
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + option + "' must be a number, not '" + value + "'");
		}
	}

	private static Duration seconds(String value, String option) {
		String text = value.toLowerCase(Locale.ROOT);
		if (text.endsWith("s") && !text.endsWith("ms")) {
			try {
				return Duration.ofMillis(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1000));
			}
			catch (NumberFormatException ex) {
				// reported below
			}
		}
		throw new IllegalArgumentException("'" + option + "' must be a number of seconds such as 60s, not '" + value
				+ "'");
	}

	private static List<StartupMode> modes(String value) {
		List<StartupMode> modes = new ArrayList<>();
		for (String part : value.split(",")) {
			modes.add(StartupMode.named(part.strip()));
		}
		return modes;
	}

}
