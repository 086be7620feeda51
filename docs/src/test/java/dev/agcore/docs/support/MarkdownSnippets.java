package dev.agcore.docs.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a Markdown page and the source each one says it shows: a line
 * {@code <!-- snippet: src/test/java/dev/agcore/docs/Foo.java#tag -->} (path relative to
 * the docs module, {@code #tag} optional) just above the fence.
 */
public final class MarkdownSnippets {

	/** The languages whose blocks must come from a compiled, tested source. */
	public static final Set<String> CHECKED_LANGUAGES = Set.of("java", "yaml", "yml");

	private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([\\w+-]*).*$");

	private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*snippet:\\s*([^#\\s]+)(?:#([\\w.-]+))?\\s*-->\\s*$");

	private MarkdownSnippets() {
	}

	/**
	 * A fenced block of a page.
	 * @param page the page
	 * @param line the 1-based line of the opening fence
	 * @param language the info string's first word, lower case ("" without one)
	 * @param indent the fence's indentation (inside a list item, say)
	 * @param source the marker's path, or {@code null} without a marker
	 * @param tag the marker's tag, or {@code null} for a whole file
	 * @param bodyFrom the 0-based index of the block's first line
	 * @param bodyTo the 0-based index of the closing fence
	 * @param body the block's lines, without the fence's indentation
	 */
	public record Block(Path page, int line, String language, String indent, String source, String tag,
			int bodyFrom, int bodyTo, List<String> body) {

		/** Whether this block must have a marker. */
		public boolean checked() {
			return CHECKED_LANGUAGES.contains(this.language);
		}

		/** {@code page:line}, for messages. */
		public String location() {
			return this.page + ":" + this.line;
		}

		/** The marker's text, for messages. */
		public String reference() {
			return this.source + ((this.tag != null) ? "#" + this.tag : "");
		}

	}

	/**
	 * Read the fenced blocks of a page.
	 * @param page the page
	 * @return the blocks, in page order
	 */
	public static List<Block> read(Path page) {
		return parse(page, lines(page));
	}

	static List<Block> parse(Path page, List<String> lines) {
		List<Block> blocks = new ArrayList<>();
		int i = 0;
		while (i < lines.size()) {
			Matcher open = FENCE.matcher(lines.get(i));
			if (!open.matches()) {
				i++;
				continue;
			}
			String indent = open.group(1);
			String fence = open.group(2);
			String language = open.group(3).toLowerCase(Locale.ROOT);
			int close = i + 1;
			while (close < lines.size() && !isClosing(lines.get(close), fence)) {
				close++;
			}
			String source = null;
			String tag = null;
			if (i > 0) {
				Matcher marker = MARKER.matcher(lines.get(i - 1));
				if (marker.matches()) {
					source = marker.group(1);
					tag = marker.group(2);
				}
			}
			List<String> body = new ArrayList<>();
			for (int b = i + 1; b < close; b++) {
				String line = lines.get(b);
				body.add(line.startsWith(indent) ? line.substring(indent.length()) : line.stripLeading());
			}
			blocks.add(new Block(page, i + 1, language, indent, source, tag, i + 1, close, SourceRegion.outdent(body)));
			i = close + 1;
		}
		return blocks;
	}

	private static boolean isClosing(String line, String fence) {
		String stripped = line.strip();
		return stripped.startsWith(fence) && stripped.chars().allMatch((c) -> c == fence.charAt(0));
	}

	/**
	 * Rewrite a page's marked blocks from their sources.
	 * @param page the page
	 * @param module the docs module's directory, which marker paths are relative to
	 * @return whether the page changed
	 */
	public static boolean update(Path page, Path module) {
		List<String> lines = lines(page);
		List<Block> blocks = parse(page, lines);
		List<String> updated = new ArrayList<>(lines);
		// from the last block up, so earlier indexes stay valid
		for (int b = blocks.size() - 1; b >= 0; b--) {
			Block block = blocks.get(b);
			if (block.source() == null || !Files.isRegularFile(module.resolve(block.source()))) {
				continue;
			}
			List<String> region = SourceRegion.read(module.resolve(block.source()), block.tag());
			List<String> indented = new ArrayList<>();
			for (String line : region) {
				indented.add(line.isEmpty() ? "" : block.indent() + line);
			}
			updated.subList(block.bodyFrom(), block.bodyTo()).clear();
			updated.addAll(block.bodyFrom(), indented);
		}
		if (updated.equals(lines)) {
			return false;
		}
		try {
			Files.writeString(page, String.join("\n", updated) + "\n");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return true;
	}

	private static List<String> lines(Path page) {
		try {
			return Files.readAllLines(page);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
