package dev.agcore.prompt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What the seeds' syntax needs beyond Handlebars, done before Handlebars parses a
 * template: {@code {{#raw}}…{{/raw}}} blocks become a helper call that prints their text
 * untouched (Handlebars' own raw blocks still parse what they hold), {@code {{#each x}}}
 * tags learn the name of their variable for error messages, and blocks and partial
 * inclusions are measured for the depth limit. Also reports the mistakes Handlebars
 * explains poorly: an unclosed tag or block, a stray closing tag.
 */
final class TemplateSyntax {

	/** The helper printing the text of a raw block, by its index. */
	static final String RAW_HELPER = "agcore_raw";

	/** The hash key telling {@code each} the name of its variable. */
	static final String EACH_VARIABLE = "agcore_var";

	private static final String RAW_OPEN = "{{#raw}}";

	private static final String RAW_CLOSE = "{{/raw}}";

	private TemplateSyntax() {
	}

	/**
	 * A template ready for Handlebars.
	 *
	 * @param source the text Handlebars compiles
	 * @param depth how deeply the template's own blocks nest
	 * @param partials the partials it includes, with the block depth of each inclusion
	 */
	record Prepared(String source, int depth, List<Inclusion> partials) {

	}

	/**
	 * One {@code {{> name}}} in a template.
	 *
	 * @param name the partial's name
	 * @param depth how many blocks enclose it
	 */
	record Inclusion(String name, int depth) {

	}

	/**
	 * Prepare a template.
	 * @param name the template's name, for messages
	 * @param text the template as written
	 * @param raws stores a raw block's text and returns its index
	 * @return the template for Handlebars
	 * @throws PromptException if a tag or block is not closed, or a closing tag has no block
	 */
	static Prepared prepare(String name, String text, RawTexts raws) {
		StringBuilder out = new StringBuilder(text.length() + 16);
		Deque<String> blocks = new ArrayDeque<>();
		List<Inclusion> partials = new ArrayList<>();
		int depth = 0;
		int i = 0;
		while (i < text.length()) {
			int open = text.indexOf("{{", i);
			if (open < 0) {
				out.append(text, i, text.length());
				break;
			}
			out.append(text, i, open);
			if (text.startsWith(RAW_OPEN, open)) {
				int close = text.indexOf(RAW_CLOSE, open + RAW_OPEN.length());
				if (close < 0) {
					throw parse(name, text, open, "the {{#raw}} block is not closed with {{/raw}}");
				}
				int index = raws.add(text.substring(open + RAW_OPEN.length(), close));
				out.append("{{").append(RAW_HELPER).append(' ').append(index).append("}}");
				i = close + RAW_CLOSE.length();
				continue;
			}
			int end = text.indexOf("}}", open + 2);
			if (end < 0) {
				throw parse(name, text, open, "a tag opened with {{ is not closed with }}");
			}
			// {{{triple}}} stashes end with }}}: keep the third brace with the tag
			int tagEnd = (end + 2 < text.length() && text.charAt(end + 2) == '}') ? end + 3 : end + 2;
			String tag = text.substring(open, tagEnd);
			String body = strip(text.substring(open + 2, end));
			if ((body.startsWith("#") || body.startsWith("^")) && body.length() > 1) {
				String keyword = firstWord(body.substring(1));
				blocks.push(keyword);
				depth = Math.max(depth, blocks.size());
				tag = eachWithVariable(tag, body, keyword);
			}
			else if (body.startsWith("/")) {
				String keyword = firstWord(body.substring(1));
				if (blocks.isEmpty()) {
					throw parse(name, text, open, "{{/" + keyword + "}} closes no open block");
				}
				String expected = blocks.pop();
				if (!expected.equals(keyword)) {
					throw parse(name, text, open, "{{/" + keyword + "}} closes the {{#" + expected + "}} block");
				}
			}
			else if (body.startsWith(">")) {
				String partial = firstWord(body.substring(1).strip());
				if (!partial.isEmpty()) {
					partials.add(new Inclusion(partial, blocks.size()));
				}
			}
			out.append(tag);
			i = tagEnd;
		}
		if (!blocks.isEmpty()) {
			throw new PromptException(PromptException.Kind.PARSE, name,
					"Template '" + name + "': the {{#" + blocks.peek() + "}} block is not closed with {{/"
							+ blocks.peek() + "}}");
		}
		return new Prepared(out.toString(), depth, List.copyOf(partials));
	}

	/** Stores the text of raw blocks. */
	@FunctionalInterface
	interface RawTexts {

		int add(String text);

	}

	// {{#each list}} becomes {{#each list agcore_var="list"}}, so a missing list is named
	private static String eachWithVariable(String tag, String body, String keyword) {
		if (!keyword.equals("each") || !tag.startsWith("{{#")) {
			return tag;
		}
		String variable = body.substring(1 + keyword.length()).strip();
		if (variable.isEmpty() || !variable.matches("[\\p{L}\\p{N}_.$@/-]+")) {
			return tag;
		}
		return "{{#each " + variable + " " + EACH_VARIABLE + "=\"" + variable + "\"}}";
	}

	// Handlebars' whitespace control: {{~#if x~}}
	private static String strip(String body) {
		String stripped = body.strip();
		if (stripped.startsWith("~")) {
			stripped = stripped.substring(1);
		}
		if (stripped.endsWith("~")) {
			stripped = stripped.substring(0, stripped.length() - 1);
		}
		return stripped.strip();
	}

	private static String firstWord(String text) {
		String stripped = text.strip();
		int space = 0;
		while (space < stripped.length() && !Character.isWhitespace(stripped.charAt(space))) {
			space++;
		}
		return stripped.substring(0, space);
	}

	private static PromptException parse(String name, String text, int offset, String what) {
		int line = 1;
		int column = 1;
		for (int i = 0; i < offset; i++) {
			if (text.charAt(i) == '\n') {
				line++;
				column = 1;
			}
			else {
				column++;
			}
		}
		return new PromptException(PromptException.Kind.PARSE, name,
				"Template '" + name + "' line " + line + ", column " + column + ": " + what);
	}

}
