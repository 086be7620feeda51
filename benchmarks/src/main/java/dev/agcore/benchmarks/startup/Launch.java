package dev.agcore.benchmarks.startup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One launch of an application: what Spring Boot logged when it had started.
 *
 * @param app the application
 * @param mode how it was launched
 * @param round which of the interleaved rounds, from 1
 * @param startedSeconds Spring's "Started ... in" figure: from {@code SpringApplication.run}
 * to the application context refreshed and the web server started
 * @param processSeconds Spring's "process running for" figure: the JVM's uptime at that
 * point, the JVM's own start and class loading before {@code main} included
 * @param cpuSeconds the CPU time the JVM had used (all its threads: the JIT compilers and
 * the garbage collector too) when the harness read the startup line, or a negative number
 * where {@code /proc} does not tell it; on a loaded machine it varies far less than the
 * two wall-clock figures
 * @param mainThreadCpuSeconds the part of it that the thread running {@code main} used
 * (the threads Linux names {@code java}): the startup's own work, without the JIT
 * compilers' and the garbage collector's, which vary most between launches
 */
public record Launch(StartupApp app, StartupMode mode, int round, double startedSeconds, double processSeconds,
		double cpuSeconds, double mainThreadCpuSeconds) {

	private static final Pattern STARTED = Pattern
		.compile("Started \\S+ in (\\d+(?:\\.\\d+)?) seconds \\(process running for (\\d+(?:\\.\\d+)?)\\)");

	/**
	 * Read Spring Boot's startup line, as {@code StartupInfoLogger} writes it.
	 * @param line a line of the application's output
	 * @return the two figures of the line, when it is the startup line
	 */
	static Optional<double[]> parse(String line) {
		Matcher matcher = STARTED.matcher(line);
		if (!matcher.find()) {
			return Optional.empty();
		}
		return Optional.of(new double[] { Double.parseDouble(matcher.group(1)), Double.parseDouble(matcher.group(2)) });
	}

	/**
	 * The CPU time a process has used so far, user and system, from {@code /proc/<pid>/stat}.
	 * @param pid the process
	 * @return the seconds, or -1 where {@code /proc} is not there
	 */
	static double cpuSeconds(long pid) {
		try {
			return cpuSeconds(Path.of("/proc", Long.toString(pid), "stat"));
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * The CPU time the threads named {@code java} of a JVM have used: the launcher's
	 * thread and the one running {@code main} (the JVM names its own threads, such as
	 * {@code C2 CompilerThre} and {@code GC Thread#0}).
	 * @param pid the process
	 * @return the seconds, or -1 where {@code /proc} is not there
	 */
	static double mainThreadCpuSeconds(long pid) {
		Path tasks = Path.of("/proc", Long.toString(pid), "task");
		try (Stream<Path> threads = Files.list(tasks)) {
			double seconds = 0;
			for (Path thread : threads.toList()) {
				try {
					if ("java".equals(Files.readString(thread.resolve("comm")).strip())) {
						seconds += cpuSeconds(thread.resolve("stat"));
					}
				}
				catch (IOException ex) {
					// the thread ended
				}
			}
			return seconds;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	private static double cpuSeconds(Path stat) throws IOException {
		String line = Files.readString(stat);
		// the fields after the command name, which is in parentheses and may hold spaces
		String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
		// utime and stime, fields 14 and 15 of proc(5), in clock ticks of 1/100 s (USER_HZ on Linux)
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
	}

}
