package dev.agcore.mcp;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reference to a prompt of an MCP server, written {@code mcp:<server>/<prompt>}, such
 * as an agent's system prompt in configuration. Prose never matches: the whole text must
 * be the reference, without spaces.
 *
 * @param server the server's configured name
 * @param prompt the prompt's name on the server
 * @since 0.1.0
 */
public record McpPromptReference(String server, String prompt) {

	private static final Pattern REFERENCE = Pattern.compile("mcp:([A-Za-z0-9][A-Za-z0-9_.-]*)/(\\S+)");

	public McpPromptReference {
		Objects.requireNonNull(server, "'server' must not be null");
		Objects.requireNonNull(prompt, "'prompt' must not be null");
	}

	/**
	 * Parse a reference.
	 * @param text the text, such as {@code mcp:everything/simple-prompt}
	 * @return the reference, or empty when the text is not one
	 */
	public static Optional<McpPromptReference> parse(String text) {
		Matcher matcher = REFERENCE.matcher(text.strip());
		return matcher.matches() ? Optional.of(new McpPromptReference(matcher.group(1), matcher.group(2)))
				: Optional.empty();
	}

	@Override
	public String toString() {
		return "mcp:" + this.server + "/" + this.prompt;
	}

}
