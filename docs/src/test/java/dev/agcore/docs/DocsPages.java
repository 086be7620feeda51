package dev.agcore.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the docs are: this module's directory (the repository's {@code docs} folder), its
 * Markdown pages and the repository's README.
 */
final class DocsPages {

	private DocsPages() {
	}

	/** The docs module's directory, which snippet markers are relative to. */
	static Path module() {
		// Maven runs the tests in the module's directory and says so in basedir
		return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
	}

	/** The repository's root directory. */
	static Path root() {
		return module().getParent();
	}

	/** The README and every page under docs (not the module's sources or build output). */
	static List<Path> pages() {
		List<Path> pages = new ArrayList<>();
		pages.add(root().resolve("README.md"));
		try (Stream<Path> files = Files.walk(module())) {
			files.filter((file) -> file.toString().endsWith(".md"))
				.filter((file) -> !file.startsWith(module().resolve("target")) && !file.startsWith(module().resolve("src")))
				.sorted()
				.forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	/** A page's path relative to the repository, for messages. */
	static String name(Path page) {
		return root().relativize(page).toString();
	}

}
