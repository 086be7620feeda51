package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code @command} words of a user message for the planner runner: each names a tool
 * (an alias of the agent's, or the tool's own name) the first model call must use. A word
 * that names no tool is left alone, so an e-mail address or a mention stays text.
 *
 * @param tools the tools forced, in order of first mention
 * @param text the message without the command words
 */
record PlannerCommands(List<String> tools, String text) {

	/** {@code @name} at the start of the text or after a blank; dots only inside the name. */
	private static final Pattern COMMAND = Pattern
		.compile("(?<!\\S)@([\\p{L}\\p{N}_-]+(?:\\.[\\p{L}\\p{N}_-]+)*)");

	/**
	 * Find the command words of a message.
	 * @param text the user's message
	 * @param aliases command to tool name, matched ignoring case
	 * @param toolNames the agent's tools
	 * @return the commands; no tools and the text unchanged when it has none
	 */
	static PlannerCommands parse(String text, Map<String, String> aliases, Set<String> toolNames) {
		Set<String> tools = new LinkedHashSet<>();
		StringBuilder rest = new StringBuilder(text.length());
		Matcher matcher = COMMAND.matcher(text);
		int last = 0;
		while (matcher.find()) {
			String tool = tool(matcher.group(1), aliases, toolNames);
			if (tool == null) {
				continue;
			}
			tools.add(tool);
			rest.append(text, last, matcher.start());
			last = matcher.end();
			// the blank after the command goes with it
			while (last < text.length() && text.charAt(last) == ' ') {
				last++;
			}
		}
		if (tools.isEmpty()) {
			return new PlannerCommands(List.of(), text);
		}
		rest.append(text, last, text.length());
		String stripped = rest.toString().strip();
		// a message of commands only still says something to the model
		return new PlannerCommands(new ArrayList<>(tools), stripped.isEmpty() ? text.strip() : stripped);
	}

	private static String tool(String word, Map<String, String> aliases, Set<String> toolNames) {
		for (Map.Entry<String, String> alias : aliases.entrySet()) {
			if (alias.getKey().toLowerCase(Locale.ROOT).equals(word.toLowerCase(Locale.ROOT))) {
				return toolNames.contains(alias.getValue()) ? alias.getValue() : null;
			}
		}
		return toolNames.contains(word) ? word : null;
	}

}
