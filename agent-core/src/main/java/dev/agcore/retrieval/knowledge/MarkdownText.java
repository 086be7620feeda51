package dev.agcore.retrieval.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The little of a Markdown body's structure a knowledge page needs: its first level-one
 * heading ({@code # Title}, or {@code Title} underlined with {@code ===}) and the first sentence of its first paragraph, with inline markup removed.
 * Fenced code blocks are skipped. A line-based reading, not a full CommonMark parser.
 */
final class MarkdownText {

	private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)\\]\\([^)]*\\)");

	private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

	private static final Pattern EMPHASIS = Pattern.compile("(\\*\\*|__|\\*|`)");

	private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s)|[。！？]");

	private final String heading;

	private final String paragraph;

	private MarkdownText(String heading, String paragraph) {
		this.heading = heading;
		this.paragraph = paragraph;
	}

	static MarkdownText of(String body) {
		String heading = "";
		List<String> paragraph = new ArrayList<>();
		boolean inFence = false;
		boolean paragraphDone = false;
		for (String line : body.split("\n", -1)) {
			String stripped = line.strip();
			if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
				inFence = !inFence;
				paragraphDone |= !paragraph.isEmpty();
				continue;
			}
			if (inFence) {
				continue;
			}
			if (stripped.matches("=+") && heading.isEmpty() && paragraph.size() == 1 && !paragraphDone) {
				// a Setext heading: the line above, underlined with =
				heading = inline(paragraph.remove(0));
			}
			else if (stripped.startsWith("#")) {
				if (heading.isEmpty() && stripped.startsWith("# ")) {
					heading = inline(stripped.substring(2).replaceAll("\\s+#+\\s*$", ""));
				}
				paragraphDone |= !paragraph.isEmpty();
			}
			else if (stripped.isEmpty() || isBlock(stripped)) {
				paragraphDone |= !paragraph.isEmpty();
			}
			else if (!paragraphDone) {
				paragraph.add(stripped);
			}
			if (!heading.isEmpty() && paragraphDone) {
				break;
			}
		}
		return new MarkdownText(heading, inline(String.join(" ", paragraph)));
	}

	String firstHeading() {
		return this.heading;
	}

	/**
	 * Return the first sentence of the first paragraph.
	 * @param maxLength the longest result; a longer sentence is cut at a space and ends
	 * with {@code …}
	 * @return the sentence; empty if there is no paragraph
	 */
	String firstSentence(int maxLength) {
		var matcher = SENTENCE_END.matcher(this.paragraph);
		String sentence = matcher.find() ? this.paragraph.substring(0, matcher.end()) : this.paragraph;
		if (sentence.length() <= maxLength) {
			return sentence;
		}
		int cut = sentence.lastIndexOf(' ', maxLength - 1);
		if (cut < maxLength / 2) {
			cut = maxLength - 1;
		}
		if (Character.isHighSurrogate(sentence.charAt(cut - 1))) {
			cut--;
		}
		return sentence.substring(0, cut).strip() + "…";
	}

	/** Tables, lists, quotes, HTML, rules: not a paragraph to summarize from. */
	private static boolean isBlock(String line) {
		return line.startsWith("|") || line.startsWith("<") || line.startsWith(">") || line.startsWith("- ")
				|| line.startsWith("* ") || line.startsWith("+ ") || line.matches("\\d+[.)]\\s.*") || line.startsWith("===")
				|| line.startsWith("---") || line.startsWith("![");
	}

	private static String inline(String text) {
		String plain = IMAGE.matcher(text).replaceAll("$1");
		plain = LINK.matcher(plain).replaceAll("$1");
		plain = EMPHASIS.matcher(plain).replaceAll("");
		return plain.replaceAll("\\s+", " ").strip();
	}

}
