package dev.agcore.docs.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A region of a source file that a docs page shows: the lines between
 * {@code tag::name[]} and {@code end::name[]} (in a comment of any kind), or the whole
 * file without a tag. Lines carrying other tag markers are left out, so regions may nest
 * or overlap; the region's common indentation is removed and leading tabs become four
 * spaces each.
 */
public final class SourceRegion {

	private static final Pattern MARKER = Pattern.compile("(tag|end)::([\\w.-]+)\\[\\]");

	private SourceRegion() {
	}

	/**
	 * Read a region.
	 * @param file the source file
	 * @param tag the tag, or {@code null} for the whole file
	 * @return the region's lines, without their common indentation
	 * @throws IllegalArgumentException if the file has no such tag, or it is not closed
	 */
	public static List<String> read(Path file, String tag) {
		List<String> lines;
		try {
			lines = Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<String> region = new ArrayList<>();
		boolean inside = (tag == null);
		boolean found = (tag == null);
		boolean closed = (tag == null);
		for (String line : lines) {
			Matcher marker = MARKER.matcher(line);
			if (marker.find()) {
				if (marker.group(2).equals(tag)) {
					if (marker.group(1).equals("tag")) {
						inside = true;
						found = true;
					}
					else if (inside) {
						inside = false;
						closed = true;
					}
				}
				continue;
			}
			if (inside) {
				region.add(spaces(line));
			}
		}
		if (!found) {
			throw new IllegalArgumentException("no 'tag::" + tag + "[]' in " + file);
		}
		if (!closed) {
			throw new IllegalArgumentException("'tag::" + tag + "[]' is not closed by 'end::" + tag + "[]' in " + file);
		}
		return outdent(trimBlankEnds(region));
	}

	/**
	 * Remove the lines' common indentation (blank lines do not count) and trailing blanks.
	 * @param lines the lines
	 * @return the outdented lines
	 */
	public static List<String> outdent(List<String> lines) {
		int common = Integer.MAX_VALUE;
		for (String line : lines) {
			if (!line.isBlank()) {
				common = Math.min(common, indentation(line));
			}
		}
		List<String> result = new ArrayList<>(lines.size());
		for (String line : lines) {
			String stripped = line.stripTrailing();
			result.add(stripped.isEmpty() ? "" : stripped.substring(Math.min(common, indentation(stripped))));
		}
		return result;
	}

	/** Leading tabs (the project's Java style) as four spaces each, as the pages show code. */
	static String spaces(String line) {
		int tabs = 0;
		while (tabs < line.length() && line.charAt(tabs) == '\t') {
			tabs++;
		}
		return "    ".repeat(tabs) + line.substring(tabs);
	}

	static List<String> trimBlankEnds(List<String> lines) {
		int from = 0;
		int to = lines.size();
		while (from < to && lines.get(from).isBlank()) {
			from++;
		}
		while (to > from && lines.get(to - 1).isBlank()) {
			to--;
		}
		return lines.subList(from, to);
	}

	private static int indentation(String line) {
		int i = 0;
		while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

}
