package dev.agcore.benchmarks.memory;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * What {@link MemoryPerSession} measured: the live heap in four states, each one's
 * growth over the state before it, per session or per turn, and by class.
 *
 * @param options what was run
 * @param chunksBeforeHold the chunks each streamed turn had received when measured
 * @param empty the agent alone, warmed up
 * @param idle with the sessions' histories stored
 * @param inFlight with a streamed turn held in every session as well
 * @param after once those turns completed and were stored
 */
record MemoryReport(MemoryOptions options, int chunksBeforeHold, State empty, State idle, State inFlight,
		State after) {

	/**
	 * Return the live bytes an idle session holds: its history and its entry in the store.
	 * @return bytes per session
	 */
	double bytesPerIdleSession() {
		return perItem(this.idle, this.empty);
	}

	/**
	 * Return the live bytes a streamed turn holds while it waits for the model.
	 * @return bytes per turn
	 */
	double bytesPerTurnInFlight() {
		return perItem(this.inFlight, this.idle);
	}

	/**
	 * Return the bytes of message text an idle session holds (its strings' characters,
	 * one byte each: the texts are Latin-1, which the JVM stores compactly).
	 * @return bytes per session
	 */
	long textBytesPerSession() {
		return (long) this.options.turns() * (this.options.userChars() + this.options.answerChars());
	}

	/**
	 * Return what grew between two states, by class, in all.
	 * @param state the later state
	 * @param before the earlier state
	 * @return the classes, largest growth first
	 */
	static List<HeapHistogram.Delta> classesGrown(State state, State before) {
		return state.histogram().since(before.histogram());
	}

	String header(String loadBefore, String loadAfter) {
		Runtime runtime = Runtime.getRuntime();
		String collectors = ManagementFactory.getGarbageCollectorMXBeans()
			.stream()
			.map(GarbageCollectorMXBean::getName)
			.collect(Collectors.joining(", "));
		return String.format(Locale.ROOT, """
				Memory per session, %s
				JDK %s (%s), %d cores, max heap %d MB, collectors %s, JVM arguments %s
				load average (1, 5, 15 min) before %s, after %s
				%,d sessions x %d turns (%d messages each), %s: user messages of %d characters, \
				answers of %d, system prompt of %d; streamed turns: %d chunks, held after %d
				live heap: GC.class_histogram (a full GC first); heap used: MemoryMXBean right after it
				""", Instant.now().truncatedTo(ChronoUnit.SECONDS), System.getProperty("java.runtime.version"),
				System.getProperty("java.vm.name"), runtime.availableProcessors(), runtime.maxMemory() >> 20,
				collectors, ManagementFactory.getRuntimeMXBean().getInputArguments(), loadBefore, loadAfter,
				this.options.sessions(), this.options.turns(), 2 * this.options.turns(), users(),
				this.options.userChars(),
				this.options.answerChars(), MemoryPerSession.SYSTEM_PROMPT.length(), this.options.chunks(),
				this.chunksBeforeHold);
	}

	private String users() {
		if (this.options.users() == 0) {
			return "requests naming no user";
		}
		return String.format(Locale.ROOT, "each listed in the session directory of one of %,d users",
				this.options.users());
	}

	/**
	 * Format the states, then the classes that grew, as Markdown tables.
	 * @return the tables
	 */
	String table() {
		int sessions = this.options.sessions();
		StringBuilder table = new StringBuilder();
		table.append("| state | live heap | growth | per session or turn | heap used | growth |\n");
		table.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
		row(table, "no sessions (the agent built and warmed up)", this.empty, null);
		row(table, String.format(Locale.ROOT, "%,d idle sessions, %d messages each", sessions,
				2 * this.options.turns()), this.idle, this.empty);
		row(table, String.format(Locale.ROOT, "+ %,d streamed turns in flight (%d of %d chunks)", sessions,
				this.chunksBeforeHold, this.options.chunks()), this.inFlight, this.idle);
		row(table, String.format(Locale.ROOT, "after those turns completed (%d messages each)",
				2 * this.options.turns() + 2), this.after, this.idle);
		table.append(String.format(Locale.ROOT, "%nMessage text: %,d bytes per session (%.0f %% of the idle session)%n",
				textBytesPerSession(), 100.0 * textBytesPerSession() / bytesPerIdleSession()));
		classes(table, "Per idle session, by class", this.idle, this.empty);
		classes(table, "Per streamed turn in flight, by class", this.inFlight, this.idle);
		return table.toString();
	}

	private void row(StringBuilder table, String name, State state, @Nullable State before) {
		if (before == null) {
			table.append(String.format(Locale.ROOT, "| %s | %.1f MB | – | – | %.1f MB | – |%n", name,
					state.liveBytes() / 1e6, state.heapUsed() / 1e6));
			return;
		}
		table.append(String.format(Locale.ROOT, "| %s | %.1f MB | %+.2f MB | %,.0f bytes | %.1f MB | %+.2f MB |%n",
				name, state.liveBytes() / 1e6,
				(state.liveBytes() - before.liveBytes()) / 1e6, perItem(state, before),
				state.heapUsed() / 1e6, (state.heapUsed() - before.heapUsed()) / 1e6));
	}

	private void classes(StringBuilder table, String title, State state, State before) {
		int count = Math.max(1, state.count());
		long total = state.liveBytes() - before.liveBytes();
		table.append('\n').append(title).append(":\n\n");
		table.append("| class | instances | bytes | share |\n");
		table.append("| --- | ---: | ---: | ---: |\n");
		List<HeapHistogram.Delta> deltas = classesGrown(state, before);
		long listed = 0;
		for (HeapHistogram.Delta delta : deltas.subList(0, Math.min(this.options.top(), deltas.size()))) {
			listed += delta.bytes();
			table.append(String.format(Locale.ROOT, "| `%s` | %.2f | %,.0f | %.1f %% |%n", delta.readableName(),
					(double) delta.instances() / count, (double) delta.bytes() / count, 100.0 * delta.bytes() / total));
		}
		table.append(String.format(Locale.ROOT, "| everything else | | %,.0f | %.1f %% |%n",
				(double) (total - listed) / count, 100.0 * (total - listed) / total));
		Map<String, long[]> origins = new TreeMap<>();
		for (HeapHistogram.Delta delta : deltas) {
			long[] sums = origins.computeIfAbsent(origin(delta.className()), (key) -> new long[2]);
			sums[0] += delta.instances();
			sums[1] += delta.bytes();
		}
		table.append("\n| by origin | instances | bytes | share |\n");
		table.append("| --- | ---: | ---: | ---: |\n");
		origins.entrySet()
			.stream()
			.filter((entry) -> Math.abs(entry.getValue()[1]) >= count)
			.sorted(Comparator.comparingLong((Map.Entry<String, long[]> entry) -> entry.getValue()[1]).reversed())
			.forEach((entry) -> table.append(String.format(Locale.ROOT, "| %s | %.2f | %,.0f | %.1f %% |%n",
					entry.getKey(), (double) entry.getValue()[0] / count, (double) entry.getValue()[1] / count,
					100.0 * entry.getValue()[1] / total)));
	}

	/**
	 * Return where instances of a class come from: the agcore package, Reactor, this
	 * tool, or the JDK (arrays, strings and collections, whoever holds them).
	 * @param className the class, as the JVM names it
	 * @return the origin
	 */
	static String origin(String className) {
		if (className.startsWith("dev.agcore.benchmarks.")) {
			return "this tool (its model and stream watchers)";
		}
		if (className.startsWith("dev.agcore.")) {
			int lambda = className.indexOf("$$Lambda");
			String name = (lambda >= 0) ? className.substring(0, lambda) : className;
			return "`" + name.substring(0, name.lastIndexOf('.')) + "`";
		}
		if (className.startsWith("tools.jackson.")) {
			return "Jackson (JSON nodes)";
		}
		if (className.startsWith("reactor.")) {
			return "Reactor (operators, subscribers, queues)";
		}
		if (className.startsWith("[") || className.startsWith("java.")) {
			return "JDK: arrays, strings, collections (whoever holds them)";
		}
		return "other libraries";
	}

	private static double perItem(State state, State before) {
		return (double) (state.liveBytes() - before.liveBytes()) / Math.max(1, state.count());
	}

	/**
	 * The heap in one state.
	 *
	 * @param name what the state is
	 * @param count the sessions or turns it holds beyond the state before
	 * @param histogramFile the live objects by class, kept out of the heap
	 * @param liveBytes the bytes of every live object
	 * @param heapUsed the heap in use right after the histogram's collection
	 */
	record State(String name, int count, Path histogramFile, long liveBytes, long heapUsed) {

		HeapHistogram histogram() {
			return HeapHistogram.read(this.histogramFile);
		}

	}

}
