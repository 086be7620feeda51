package dev.agcore.retrieval.knowledge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Loads knowledge pages from Markdown files: every {@code *.md} file under a folder, its
 * sub-folders included, read as UTF-8. Each file becomes one page:
 * <ul>
 * <li>id: the path relative to the folder, with {@code /} separators and without
 * {@code .md} ({@code guides/retry.md} is {@code guides/retry});</li>
 * <li>title: {@code title:} of the front matter, else the first {@code # } heading, else
 * the file name;</li>
 * <li>summary: {@code summary:} (or {@code description:}) of the front matter, else the
 * first sentence of the first paragraph, at most {@value #MAX_SUMMARY_LENGTH}
 * characters;</li>
 * <li>tags: {@code tags:} of the front matter, {@code [a, b]}, {@code a, b} or a list of
 * {@code - a} lines;</li>
 * <li>references: {@code references:} of the front matter, in the same forms;</li>
 * <li>content: the text after the front matter.</li>
 * </ul>
 * The front matter is a block of {@code key: value} lines between two {@code ---} lines
 * at the top of the file; other keys are ignored. A file that cannot be loaded (not UTF-8,
 * larger than {@value #MAX_FILE_SIZE} bytes, empty, front matter not closed) is reported
 * with its path and the others still load.
 *
 * @since 0.1.0
 */
public final class MarkdownKnowledgeLoader {

	/** Largest file loaded, in bytes. */
	public static final int MAX_FILE_SIZE = 1_000_000;

	/** Most files loaded from one folder. */
	public static final int MAX_FILES = 10_000;

	/** Longest summary taken from a paragraph, in characters. */
	public static final int MAX_SUMMARY_LENGTH = 300;

	private MarkdownKnowledgeLoader() {
	}

	/**
	 * What a load gave.
	 *
	 * @param pages the pages, by path
	 * @param problems the files that could not be loaded
	 */
	public record Result(List<KnowledgePage> pages, List<Problem> problems) {

		public Result {
			pages = List.copyOf(pages);
			problems = List.copyOf(problems);
		}

	}

	/**
	 * A file that could not be loaded.
	 *
	 * @param path the file's path
	 * @param message what is wrong
	 */
	public record Problem(String path, String message) {

		@Override
		public String toString() {
			return this.path + ": " + this.message;
		}

	}

	/**
	 * Load every {@code *.md} file under a folder. Folders and files whose name starts
	 * with {@code .} are skipped; symbolic links are not followed.
	 * @param folder the folder
	 * @return the pages and the problems
	 * @throws IllegalArgumentException if the folder is not a readable directory
	 * @throws UncheckedIOException if the folder cannot be listed
	 */
	public static Result load(Path folder) {
		if (!Files.isDirectory(folder) || !Files.isReadable(folder)) {
			throw new IllegalArgumentException("'" + folder + "' is not a readable folder");
		}
		List<Path> files;
		try (Stream<Path> walk = Files.walk(folder)) {
			files = walk.filter((path) -> isMarkdown(folder.relativize(path).toString()) && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot list the Markdown files under '" + folder + "'", ex);
		}
		List<KnowledgePage> pages = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		for (Path file : files) {
			if (pages.size() + problems.size() >= MAX_FILES) {
				problems.add(new Problem(folder.toString(), "more than " + MAX_FILES + " files; the rest are skipped"));
				break;
			}
			String relative = folder.relativize(file).toString().replace('\\', '/');
			try {
				if (Files.size(file) > MAX_FILE_SIZE) {
					throw new IllegalArgumentException("larger than " + MAX_FILE_SIZE + " bytes");
				}
				pages.add(parse(relative, Files.readAllBytes(file)));
			}
			catch (IOException ex) {
				problems.add(new Problem(file.toString(), "cannot be read: " + ex.getMessage()));
			}
			catch (IllegalArgumentException ex) {
				problems.add(new Problem(file.toString(), ex.getMessage()));
			}
		}
		return new Result(pages, problems);
	}

	/**
	 * Whether a relative path names a Markdown file to load: ends with {@code .md} and
	 * has no part starting with {@code .}.
	 * @param relativePath the path, {@code /} or {@code \} separated
	 * @return whether to load it
	 */
	public static boolean isMarkdown(String relativePath) {
		String path = relativePath.replace('\\', '/');
		if (!path.toLowerCase(Locale.ROOT).endsWith(".md")) {
			return false;
		}
		for (String part : path.split("/")) {
			if (part.startsWith(".")) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Make a page of one Markdown file.
	 * @param relativePath the file's path relative to the folder, which gives the id
	 * @param bytes the file's content, UTF-8
	 * @return the page, without timestamps
	 * @throws IllegalArgumentException saying what is wrong with the file
	 */
	public static KnowledgePage parse(String relativePath, byte[] bytes) {
		if (bytes.length > MAX_FILE_SIZE) {
			throw new IllegalArgumentException("larger than " + MAX_FILE_SIZE + " bytes");
		}
		String text;
		try {
			text = StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new IllegalArgumentException("is not valid UTF-8");
		}
		return parse(relativePath, text);
	}

	/**
	 * Make a page of the text of one Markdown file.
	 * @param relativePath the file's path relative to the folder, which gives the id
	 * @param markdown the file's text
	 * @return the page, without timestamps
	 * @throws IllegalArgumentException saying what is wrong with the file
	 */
	public static KnowledgePage parse(String relativePath, String markdown) {
		String id = id(relativePath);
		String text = markdown.startsWith("\uFEFF") ? markdown.substring(1) : markdown;
		text = text.replace("\r\n", "\n").replace('\r', '\n');
		if (text.isBlank()) {
			throw new IllegalArgumentException("is empty");
		}
		FrontMatter front = FrontMatter.parse(text);
		String body = front.body();
		MarkdownText structure = MarkdownText.of(body);
		String title = firstNonBlank(front.value("title"), structure.firstHeading(), fileTitle(id));
		String summary = firstNonBlank(front.value("summary"), front.value("description"),
				structure.firstSentence(MAX_SUMMARY_LENGTH));
		return new KnowledgePage(id, title, summary, body.strip(), front.list("tags"), front.list("references"), null,
				null);
	}

	private static String id(String relativePath) {
		String path = relativePath.replace('\\', '/');
		while (path.startsWith("./")) {
			path = path.substring(2);
		}
		if (path.toLowerCase(Locale.ROOT).endsWith(".md")) {
			path = path.substring(0, path.length() - 3);
		}
		try {
			KnowledgePage.checkId(path);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("gives no valid page id: " + ex.getMessage());
		}
		return path;
	}

	private static String fileTitle(String id) {
		String name = id.substring(id.lastIndexOf('/') + 1).replace('-', ' ').replace('_', ' ').strip();
		return name.isEmpty() ? id : name;
	}

	private static String firstNonBlank(String... values) {
		for (String value : values) {
			if (value != null && !value.isBlank()) {
				return value.strip();
			}
		}
		return "";
	}

}
