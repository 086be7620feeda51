package dev.agcore.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.agcore.docs.support.MarkdownSnippets;
import dev.agcore.docs.support.MarkdownSnippets.Block;
import dev.agcore.docs.support.SourceRegion;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every ```java, ```yaml and ```yml block of the README and the docs pages shows a region
 * of a compiled, tested source of this module, marked by a line
 * {@code <!-- snippet: src/test/java/dev/agcore/docs/...java#tag -->} just above its
 * fence, and is exactly that region. {@code -Ddocs.update=true} rewrites the blocks from
 * their sources instead of failing:
 * {@code mvn -B -o -pl docs -am test -Dtest=DocsSnippetsTests -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true}.
 */
class DocsSnippetsTests {

	/**
	 * Pages whose blocks are not yet taken from compiled sources: their unmarked blocks are
	 * not checked (their marked ones are). Remove a page when it is converted; the list may
	 * only shrink, and {@link #pagesNotYetConvertedStillHaveUnmarkedBlocks()} fails when a
	 * page here has nothing left to convert. Empty: every page is converted, and a new page
	 * has its blocks taken from sources from the start.
	 */
	static final Set<String> NOT_YET_CONVERTED = Set.of();

	static final String UPDATE_COMMAND = "mvn -B -pl docs -am test -Dtest=DocsSnippetsTests "
			+ "-Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true";

	@TestFactory
	Stream<DynamicTest> everyCodeBlockOfThePagesIsARegionOfACompiledSource() {
		boolean update = Boolean.getBoolean("docs.update");
		return DocsPages.pages().stream().map((page) -> DynamicTest.dynamicTest(DocsPages.name(page), () -> {
			if (update) {
				MarkdownSnippets.update(page, DocsPages.module());
			}
			List<String> problems = problems(page, DocsPages.module(),
					!NOT_YET_CONVERTED.contains(DocsPages.name(page)));
			assertThat(problems).as(() -> "Code blocks of " + DocsPages.name(page)
					+ " that are not regions of the docs module's sources:\n  " + String.join("\n  ", problems)
					+ "\n\n" + howToFix())
				.isEmpty();
		}));
	}

	/**
	 * One test per page of {@link #NOT_YET_CONVERTED}: it still has an unmarked block, or
	 * it must leave the list. With the list empty there is nothing to check, so no test.
	 */
	@TestFactory
	Stream<DynamicTest> pagesNotYetConvertedStillHaveUnmarkedBlocks() {
		return NOT_YET_CONVERTED.stream().sorted().map((name) -> DynamicTest.dynamicTest(name, () -> {
			Path page = DocsPages.root().resolve(name);
			assertThat(page).as("%s in NOT_YET_CONVERTED does not exist: remove it from the list", name).exists();
			assertThat(MarkdownSnippets.read(page))
				.as("%s has no unmarked java/yaml block left: remove it from DocsSnippetsTests.NOT_YET_CONVERTED", name)
				.anyMatch((block) -> block.checked() && block.source() == null);
		}));
	}

	static List<String> problems(Path page, Path module, boolean converted) {
		List<String> problems = new ArrayList<>();
		for (Block block : MarkdownSnippets.read(page)) {
			if (block.source() == null) {
				if (block.checked() && converted) {
					problems.add(block.location() + ": a ```" + block.language()
							+ " block without a '<!-- snippet: path#tag -->' line above it");
				}
				continue;
			}
			Path source = module.resolve(block.source());
			if (!Files.isRegularFile(source)) {
				problems.add(block.location() + ": " + block.reference() + " does not exist (relative to docs/)");
				continue;
			}
			List<String> region;
			try {
				region = SourceRegion.read(source, block.tag());
			}
			catch (IllegalArgumentException ex) {
				problems.add(block.location() + ": " + ex.getMessage());
				continue;
			}
			if (!region.equals(block.body())) {
				problems.add(block.location() + ": differs from " + block.reference() + firstDifference(region, block.body()));
			}
		}
		return problems;
	}

	private static String firstDifference(List<String> source, List<String> page) {
		for (int i = 0; i < Math.max(source.size(), page.size()); i++) {
			String expected = (i < source.size()) ? source.get(i) : "<nothing>";
			String actual = (i < page.size()) ? page.get(i) : "<nothing>";
			if (!expected.equals(actual)) {
				return " at its line " + (i + 1) + ":\n      source: " + expected + "\n      page:   " + actual;
			}
		}
		return "";
	}

	private static String howToFix() {
		return """
				How to fix: put the code in a source of the docs module (docs/src/test/java/dev/agcore/docs/...,
				inside '// tag::name[]' ... '// end::name[]' in a class that compiles and a test that runs it;
				YAML as a file under docs/src/test/resources/, started by a test with the auto-configurations),
				write '<!-- snippet: src/test/java/.../File.java#name -->' on the line above the fence,
				then copy the source into the page with:
				  %s
				""".formatted(UPDATE_COMMAND);
	}

}
