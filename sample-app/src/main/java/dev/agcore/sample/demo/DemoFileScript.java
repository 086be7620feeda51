package dev.agcore.sample.demo;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * The demo script of an agent with the tools of the MCP filesystem server (the librarian):
 * a message naming a file ({@code "Read opening-hours.md"}) reads it with
 * {@code read_text_file}, any other message lists the folder with {@code list_directory};
 * the answer quotes what the server returned. The tools are found by the server's own
 * names, whatever the MCP server is called in {@code application.yml}
 * ({@code shop-files__read_text_file}). Not a model either.
 */
final class DemoFileScript {

	private static final String SEPARATOR = "__";

	private static final String READ = "read_text_file";

	private static final String LIST = "list_directory";

	private static final Pattern FILE = Pattern.compile("(?i)\\b([\\w-]+(?:/[\\w-]+)*\\.(?:md|txt|csv|json))\\b");

	private DemoFileScript() {
	}

	/**
	 * The MCP tool call for a message, when the agent has the filesystem tools.
	 * @param question the user's message
	 * @param tools the tools the agent offers the model
	 * @param id the id of the call
	 * @return the call, or {@code null} when the agent has no filesystem tools
	 */
	static @Nullable ToolCall call(String question, List<ToolSpec> tools, String id) {
		Optional<String> read = tool(tools, READ);
		Optional<String> list = tool(tools, LIST);
		Matcher file = FILE.matcher(question);
		if (read.isPresent() && file.find()) {
			return new ToolCall(id, read.get(), "{\"path\":\"" + DemoScriptedModel.json(file.group(1)) + "\"}");
		}
		// paths are relative to the server's folder
		return list.map((name) -> new ToolCall(id, name, "{\"path\":\".\"}")).orElse(null);
	}

	/**
	 * The answer quoting a filesystem tool's result.
	 * @param result the result of a tool call
	 * @return the answer, or {@code null} when the tool is not one of the filesystem server's
	 */
	static @Nullable String answer(ToolResultMessage result) {
		String name = result.toolName();
		int separator = name.lastIndexOf(SEPARATOR);
		String tool = (separator >= 0) ? name.substring(separator + SEPARATOR.length()) : name;
		if (separator < 0 || !(READ.equals(tool) || LIST.equals(tool))) {
			return null;
		}
		String server = name.substring(0, separator);
		return "(demo) The " + server + " MCP server's " + tool + " tool returned:\n" + result.text().strip();
	}

	private static Optional<String> tool(List<ToolSpec> tools, String name) {
		return tools.stream().map(ToolSpec::name).filter((each) -> each.endsWith(SEPARATOR + name)).findFirst();
	}

}
