package dev.agcore.benchmarks.memory;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * What {@link MemoryPerSession} measures: how many sessions, how long their histories and
 * messages are, and how a streamed answer is cut.
 *
 * @param sessions the sessions, and the turns held in flight at once
 * @param users the users the sessions belong to, in turn (the requests name them, as the
 * HTTP endpoint's do, so each session is listed in its user's session directory); 0 for
 * requests that name no user
 * @param turns the turns of each session's history: two messages each
 * @param userChars the length of a user message
 * @param answerChars the length of an answer
 * @param chunks the chunks of a streamed answer; a held stream stops after half of them
 * @param top how many classes each breakdown lists
 * @param heapDumps where to write a heap dump of each state, for a closer look (Eclipse
 * MAT, VisualVM); null for none
 */
record MemoryOptions(int sessions, int users, int turns, int userChars, int answerChars, int chunks, int top,
		@Nullable Path heapDumps) {

	static final String USAGE = """
			usage: MemoryPerSession [--sessions 1000] [--users SESSIONS] [--turns 25] [--user-chars 100] [--answer-chars 500]
			                        [--chunks 50] [--top 12] [--heap-dumps DIRECTORY]
			""";

	MemoryOptions {
		positive("--sessions", sessions);
		if (users < 0) {
			throw new IllegalArgumentException("'--users' must not be negative (was " + users + ")");
		}
		positive("--turns", turns);
		positive("--user-chars", userChars);
		positive("--answer-chars", answerChars);
		if (chunks < 2) {
			throw new IllegalArgumentException("'--chunks' must be at least 2 (was " + chunks + ")");
		}
		if (answerChars < chunks) {
			throw new IllegalArgumentException(
					"'--answer-chars' must be at least '--chunks' (" + answerChars + " < " + chunks + ")");
		}
		positive("--top", top);
	}

	/**
	 * Read options from the command line; those not given are the run, with a user
	 * of its own for each session.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException naming the option that is wrong
	 */
	static MemoryOptions parse(String... args) {
		int sessions = 1000;
		int users = -1;
		int turns = 25;
		int userChars = 100;
		int answerChars = 500;
		int chunks = 50;
		int top = 12;
		Path heapDumps = null;
		for (int i = 0; i < args.length; i += 2) {
			String name = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("'" + name + "' needs a value");
			}
			if (name.equals("--heap-dumps")) {
				heapDumps = Path.of(args[i + 1]);
				continue;
			}
			int value = number(name, args[i + 1]);
			switch (name) {
				case "--sessions" -> sessions = value;
				case "--users" -> users = value;
				case "--turns" -> turns = value;
				case "--user-chars" -> userChars = value;
				case "--answer-chars" -> answerChars = value;
				case "--chunks" -> chunks = value;
				case "--top" -> top = value;
				default -> throw new IllegalArgumentException("Unknown option '" + name + "'");
			}
		}
		return new MemoryOptions(sessions, (users < 0) ? sessions : users, turns, userChars, answerChars, chunks, top,
				heapDumps);
	}

	private static int number(String name, String value) {
		try {
			return Integer.parseInt(value.replace("_", "").replace(",", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + name + "' must be a number (was '" + value + "')");
		}
	}

	private static void positive(String name, int value) {
		if (value < 1) {
			throw new IllegalArgumentException("'" + name + "' must be at least 1 (was " + value + ")");
		}
	}

}
