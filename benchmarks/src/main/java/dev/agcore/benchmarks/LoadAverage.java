package dev.agcore.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's load average, printed beside every figure a tool measures: the machines
 * these tools run on have two cores shared with other builds, and a figure taken at a
 * load of 10 says little about the code.
 */
public final class LoadAverage {

	private static final Path LOADAVG = Path.of("/proc/loadavg");

	private LoadAverage() {
	}

	/**
	 * Return the load average over 1, 5 and 15 minutes, as {@code uptime} shows it.
	 * @return the three figures, or the 1-minute one where {@code /proc/loadavg} is missing
	 */
	public static String read() {
		try {
			if (Files.isReadable(LOADAVG)) {
				String[] fields = Files.readString(LOADAVG).trim().split("\\s+");
				return fields[0] + ", " + fields[1] + ", " + fields[2];
			}
		}
		catch (IOException ex) {
			// fall back to the 1-minute figure
		}
		return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
	}

}
