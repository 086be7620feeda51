package dev.agcore.autoconfigure.web.logs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guard for issue 27's "logs that cannot be forged": no log call of agent-core or of
 * this module passes caller or model text it is known to carry (a session id, a request
 * path, a tool call's name, an exception's message) without {@code LogSafe}. A textual
 * check of the sources, so it catches the usual shapes, not every one; the end-to-end
 * test is {@link ForgedLogLinesTests}.
 */
class LogCallsTests {

	private static final Pattern LOG_CALL = Pattern
		.compile("\\b(?:logger|log|turns|models|tools)\\.(?:trace|debug|info|warn|error)\\(");

	private static final Pattern LOG_SAFE = Pattern.compile("\\bLogSafe\\.\\w+\\(");

	// caller or model text, once what LogSafe escapes is taken out
	private static final Pattern RAW = Pattern.compile("\\b((?:this\\.)?sessionId\\b(?!\\()|\\w+\\.sessionId\\(\\)"
			+ "|request\\.path\\(\\)|call\\.name\\(\\)|\\w+\\.getMessage\\(\\)|\\w+\\.toString\\(\\))");

	@Test
	void everyLogCallEscapesTheCallerTextItCarries() throws IOException {
		List<String> raw = new ArrayList<>();
		for (Path root : List.of(Path.of("src/main/java"), Path.of("../agent-core/src/main/java"))) {
			assertThat(root).isDirectory();
			try (Stream<Path> files = Files.walk(root)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					raw.addAll(rawArguments(file, Files.readString(file)));
				}
			}
		}
		assertThat(raw).as("log calls with caller text not passed through LogSafe").isEmpty();
	}

	@Test
	void theGuardSeesARawSessionId() {
		assertThat(rawArguments(Path.of("Example.java"),
				"logger.warn(\"Turn of session '{}' failed: {}\", sessionId,\n ex.getMessage());"))
			.hasSize(2);
		assertThat(rawArguments(Path.of("Example.java"),
				"logger.warn(\"Turn of session '{}' failed: {}\", LogSafe.text(this.sessionId),\n"
						+ " LogSafe.text(ex.getMessage()), LogSafe.throwable(ex));"))
			.isEmpty();
	}

	private static List<String> rawArguments(Path file, String source) {
		List<String> raw = new ArrayList<>();
		Matcher call = LOG_CALL.matcher(source);
		while (call.find()) {
			String statement = statement(source, call.end());
			Matcher argument = RAW.matcher(withoutLogSafe(statement));
			while (argument.find()) {
				raw.add(file + ": " + argument.group(1) + " in " + statement.replaceAll("\\s+", " "));
			}
		}
		return raw;
	}

	private static String withoutLogSafe(String statement) {
		StringBuilder rest = new StringBuilder();
		int from = 0;
		Matcher safe = LOG_SAFE.matcher(statement);
		while (from < statement.length() && safe.find(from)) {
			rest.append(statement, from, safe.start());
			int end = safe.end() + statement(statement, safe.end()).length() + 1;
			from = Math.min(end, statement.length());
		}
		return rest.append(statement.substring(Math.min(from, statement.length()))).toString();
	}

	/** The arguments of a call, from after its opening parenthesis to the closing one. */
	private static String statement(String source, int start) {
		int depth = 1;
		boolean quoted = false;
		for (int i = start; i < source.length(); i++) {
			char c = source.charAt(i);
			if (c == '\\' && quoted) {
				i++;
			}
			else if (c == '"') {
				quoted = !quoted;
			}
			else if (!quoted && c == '(') {
				depth++;
			}
			else if (!quoted && c == ')' && --depth == 0) {
				return source.substring(start, i);
			}
		}
		return source.substring(start);
	}

}
