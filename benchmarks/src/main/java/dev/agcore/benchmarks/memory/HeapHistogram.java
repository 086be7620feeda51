package dev.agcore.benchmarks.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.JMException;
import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * The live objects of this JVM by class, as {@code jcmd <pid> GC.class_histogram} prints
 * them, read through the same diagnostic command in-process. The command runs a full
 * collection first, so only reachable objects are counted, and the sizes are the JVM's
 * own (headers, alignment and compressed pointers included), not estimates.
 *
 * @param classes instances and bytes by class name
 * @param totalBytes the bytes of every live object
 */
record HeapHistogram(Map<String, Entry> classes, long totalBytes) {

	private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

	/**
	 * Take a histogram of the live heap.
	 * @return the histogram
	 */
	static HeapHistogram take() {
		return parse(histogramText());
	}

	/**
	 * Run {@code GC.class_histogram} and return its text.
	 * @return the text, as {@code jcmd} prints it
	 */
	static String histogramText() {
		try {
			return (String) ManagementFactory.getPlatformMBeanServer()
				.invoke(new ObjectName(DIAGNOSTIC_COMMAND), "gcClassHistogram", new Object[] { new String[0] },
						new String[] { String[].class.getName() });
		}
		catch (JMException ex) {
			throw new IllegalStateException("Could not run GC.class_histogram in this JVM", ex);
		}
	}

	/**
	 * Write the live objects to a heap dump (HPROF), replacing the file.
	 * @param file the file
	 */
	static void dump(Path file) {
		try {
			Files.createDirectories(file.toAbsolutePath().getParent());
			Files.deleteIfExists(file);
			ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(file.toString(), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the heap dump " + file, ex);
		}
	}

	/**
	 * Read a histogram that {@link #write} kept in a file.
	 * @param file the file
	 * @return the histogram
	 */
	static HeapHistogram read(Path file) {
		try {
			return parse(Files.readString(file));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + file, ex);
		}
	}

	/**
	 * Keep a histogram's text in a temporary file, deleted when the JVM exits: a
	 * histogram kept in the heap would be counted by the next one.
	 * @param text the text of {@code GC.class_histogram}
	 * @return the file
	 */
	static Path write(String text) {
		try {
			Path file = Files.createTempFile("agcore-histogram-", ".txt");
			file.toFile().deleteOnExit();
			Files.writeString(file, text);
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not keep a heap histogram in a temporary file", ex);
		}
	}

	/**
	 * Read the text of {@code GC.class_histogram}.
	 * @param text the command's output
	 * @return the histogram
	 */
	static HeapHistogram parse(String text) {
		Map<String, Entry> classes = new HashMap<>();
		long total = 0;
		for (String line : text.split("\n")) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length >= 4 && fields[0].endsWith(":")) {
				// "  12:   1000   48000  dev.agcore.message.UserMessage (module)": modules dropped
				classes.merge(fields[3], new Entry(Long.parseLong(fields[1]), Long.parseLong(fields[2])), Entry::plus);
			}
			else if (fields.length == 3 && fields[0].equals("Total")) {
				total = Long.parseLong(fields[2]);
			}
		}
		return new HeapHistogram(Map.copyOf(classes), total);
	}

	/**
	 * Return what this histogram holds more than an earlier one, by class, largest first.
	 * @param before the earlier histogram
	 * @return the classes whose bytes grew or shrank
	 */
	List<Delta> since(HeapHistogram before) {
		Set<String> names = new HashSet<>(this.classes.keySet());
		names.addAll(before.classes.keySet());
		List<Delta> deltas = new ArrayList<>();
		for (String name : names) {
			Entry now = this.classes.getOrDefault(name, Entry.NONE);
			Entry then = before.classes.getOrDefault(name, Entry.NONE);
			if (now.bytes() != then.bytes() || now.instances() != then.instances()) {
				deltas.add(new Delta(name, now.instances() - then.instances(), now.bytes() - then.bytes()));
			}
		}
		deltas.sort(Comparator.comparingLong(Delta::bytes).reversed().thenComparing(Delta::className));
		return deltas;
	}

	/**
	 * The live instances of one class.
	 *
	 * @param instances how many
	 * @param bytes their shallow size together
	 */
	record Entry(long instances, long bytes) {

		static final Entry NONE = new Entry(0, 0);

		Entry plus(Entry other) {
			return new Entry(this.instances + other.instances, this.bytes + other.bytes);
		}

	}

	/**
	 * How one class's live instances changed between two histograms.
	 *
	 * @param className the class, as the JVM names it ({@code [B} for {@code byte[]})
	 * @param instances instances more (negative: fewer)
	 * @param bytes bytes more (negative: fewer)
	 */
	record Delta(String className, long instances, long bytes) {

		/**
		 * Return the class name as Java writes it: {@code byte[]} for {@code [B}.
		 * @return the readable name
		 */
		String readableName() {
			return switch (this.className) {
				case "[B" -> "byte[]";
				case "[C" -> "char[]";
				case "[I" -> "int[]";
				case "[J" -> "long[]";
				case "[Z" -> "boolean[]";
				default -> (this.className.startsWith("[L") && this.className.endsWith(";"))
						? this.className.substring(2, this.className.length() - 1) + "[]" : this.className;
			};
		}

	}

}
