package dev.agcore.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.agcore.docs.support.MarkdownSnippets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snippet check itself: it finds unmarked, dangling and drifted blocks, and the update
 * mode copies sources into pages.
 */
class MarkdownSnippetsTests {

	@TempDir
	Path module;

	@Test
	void unmarkedJavaBlockIsReportedButOtherLanguagesAreNot() throws IOException {
		Path page = page("```java\nint a;\n```\n\n```bash\nls\n```\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).singleElement()
			.asString()
			.contains(":1: a ```java block without a '<!-- snippet: path#tag -->'");
		assertThat(DocsSnippetsTests.problems(page, this.module, false)).isEmpty();
	}

	@Test
	void markerNamingAMissingFileOrTagIsReported() throws IOException {
		source("A.java", "class A {\n\t// tag::one[]\n\tint a;\n\t// end::one[]\n}\n");
		Path page = page("<!-- snippet: B.java#one -->\n```java\nint a;\n```\n"
				+ "<!-- snippet: A.java#two -->\n```java\nint a;\n```\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).satisfiesExactly(
				(problem) -> assertThat(problem).contains("B.java#one does not exist"),
				(problem) -> assertThat(problem).contains("no 'tag::two[]' in"));
	}

	@Test
	void blockMatchingItsRegionAfterOutdentingPasses() throws IOException {
		source("A.java", "class A {\n\t// tag::one[]\n\tvoid a() {\n\t\tb();\n\t}\n\t// end::one[]\n}\n");
		Path page = page("1. a list item\n\n   <!-- snippet: A.java#one -->\n   ```java\n   void a() {\n       b();\n   }\n   ```\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).isEmpty();
	}

	@Test
	void driftedBlockIsReportedAndUpdateRewritesItKeepingTheFenceIndentation() throws IOException {
		source("a.yml", "# tag::agent[]\nagent:\n  agents:\n    a: {}\n# end::agent[]\nother: 1\n");
		Path page = page("Text\n\n  <!-- snippet: a.yml#agent -->\n  ```yaml\n  agent:\n    agents: {}\n  ```\nEnd\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).singleElement()
			.asString()
			.contains("differs from a.yml#agent at its line 2")
			.contains("source:   agents:");
		assertThat(MarkdownSnippets.update(page, this.module)).isTrue();
		assertThat(Files.readString(page))
			.isEqualTo("Text\n\n  <!-- snippet: a.yml#agent -->\n  ```yaml\n  agent:\n    agents:\n      a: {}\n  ```\nEnd\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).isEmpty();
		assertThat(MarkdownSnippets.update(page, this.module)).isFalse();
	}

	@Test
	void wholeFileWithoutTagIsTheRegion() throws IOException {
		source("b.yaml", "agent:\n  web:\n    enabled: true\n");
		Path page = page("<!-- snippet: b.yaml -->\n```yaml\nagent:\n  web:\n    enabled: false\n```\n");
		assertThat(DocsSnippetsTests.problems(page, this.module, true)).singleElement()
			.asString()
			.contains("differs from b.yaml at its line 3");
	}

	private Path page(String text) throws IOException {
		return Files.writeString(this.module.resolve("page.md"), text);
	}

	private void source(String name, String text) throws IOException {
		Files.writeString(this.module.resolve(name), text);
	}

}
