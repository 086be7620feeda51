package dev.agcore.retrieval.knowledge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MarkdownKnowledgeLoader}.
 */
class MarkdownKnowledgeLoaderTests {

	@TempDir
	Path folder;

	@Test
	void frontMatterGivesTitleSummaryTagsAndReferences() {
		KnowledgePage page = MarkdownKnowledgeLoader.parse("guides/retry.md", """
				---
				title: "Retry policy"
				summary: How clients retry failed requests.
				tags: [http, 'resilience']
				references:
				  - guides/timeouts
				# a comment
				author: someone
				---
				# Ignored heading

				Body text.
				""");

		assertThat(page.id()).isEqualTo("guides/retry");
		assertThat(page.title()).isEqualTo("Retry policy");
		assertThat(page.summary()).isEqualTo("How clients retry failed requests.");
		assertThat(page.tags()).containsExactly("http", "resilience");
		assertThat(page.references()).containsExactly("guides/timeouts");
		assertThat(page.content()).isEqualTo("# Ignored heading\n\nBody text.");
	}

	@Test
	void withoutFrontMatterTheHeadingAndFirstSentenceAreUsed() {
		KnowledgePage page = MarkdownKnowledgeLoader.parse("deploy.md", """
				# Deploying **the** service

				```
				not a paragraph.
				```
				Build the [image](https://example.com/image) and push it. Then roll out.
				Second line of the paragraph.

				Another paragraph.
				""");

		assertThat(page.title()).isEqualTo("Deploying the service");
		assertThat(page.summary()).isEqualTo("Build the image and push it.");
		assertThat(page.tags()).isEmpty();
		assertThat(page.content()).startsWith("# Deploying **the** service").endsWith("Another paragraph.");
	}

	@Test
	void aTitleUnderlinedWithEqualSignsIsAHeading() {
		KnowledgePage page = MarkdownKnowledgeLoader.parse("a.md", "Deploying\n=========\n\nFirst build. Then push.");

		assertThat(page.title()).isEqualTo("Deploying");
		assertThat(page.summary()).isEqualTo("First build.");
	}

	@Test
	void chineseSentencesEndAtTheFullStop() {
		KnowledgePage page = MarkdownKnowledgeLoader.parse("cn/缓存.md", "# 缓存配置\n\n缓存的过期时间默认为十分钟。可以修改。\n");

		assertThat(page.id()).isEqualTo("cn/缓存");
		assertThat(page.title()).isEqualTo("缓存配置");
		assertThat(page.summary()).isEqualTo("缓存的过期时间默认为十分钟。");
	}

	@Test
	void withoutHeadingTheFileNameIsTheTitle() {
		KnowledgePage page = MarkdownKnowledgeLoader.parse("notes/release-notes_2026.md", "Just text");

		assertThat(page.title()).isEqualTo("release notes 2026");
		assertThat(page.summary()).isEqualTo("Just text");
	}

	@Test
	void longSummariesAreCut() {
		String sentence = "word ".repeat(200);
		KnowledgePage page = MarkdownKnowledgeLoader.parse("a.md", sentence);

		assertThat(page.summary()).hasSizeLessThanOrEqualTo(MarkdownKnowledgeLoader.MAX_SUMMARY_LENGTH).endsWith("…");
	}

	@Test
	void tagsCanBeAListOrCommaSeparated() {
		assertThat(MarkdownKnowledgeLoader.parse("a.md", "---\ntags:\n  - x\n  - y\n---\nText").tags())
			.containsExactly("x", "y");
		assertThat(MarkdownKnowledgeLoader.parse("a.md", "---\ntags: x, y\n---\nText").tags()).containsExactly("x", "y");
	}

	@Test
	void malformedFilesAreRefusedSayingWhy() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MarkdownKnowledgeLoader.parse("a.md", "---\ntitle: T\nsummary: S\n"))
			.withMessageContaining("not closed");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MarkdownKnowledgeLoader.parse("a.md", "---\njust words\n---\nText"))
			.withMessageContaining("line 2 of the front matter is not 'key: value'");
		assertThatIllegalArgumentException().isThrownBy(() -> MarkdownKnowledgeLoader.parse("a.md", "  \n"))
			.withMessage("is empty");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MarkdownKnowledgeLoader.parse("a.md", new byte[] { 'a', (byte) 0xC3, (byte) 0x28 }))
			.withMessage("is not valid UTF-8");
	}

	@Test
	void aFolderIsLoadedRecursivelyAndBadFilesAreReportedWithTheirPath() throws IOException {
		write("index.md", "# Home\n\nWelcome.");
		write("guides/retry.md", "---\ntitle: Retry\n---\nThree times.");
		write("guides/broken.md", "---\ntitle: never closed\n");
		write("guides/notes.txt", "not markdown");
		write(".hidden/secret.md", "# Hidden");
		Files.write(this.folder.resolve("latin1.md"), new byte[] { 'c', 'a', 'f', (byte) 0xE9 });

		MarkdownKnowledgeLoader.Result result = MarkdownKnowledgeLoader.load(this.folder);

		assertThat(result.pages()).extracting(KnowledgePage::id).containsExactlyInAnyOrder("index", "guides/retry");
		assertThat(result.problems()).hasSize(2);
		assertThat(result.problems()).anySatisfy((problem) -> {
			assertThat(problem.path()).endsWith("broken.md");
			assertThat(problem.message()).contains("not closed");
		});
		assertThat(result.problems()).anySatisfy((problem) -> {
			assertThat(problem.path()).endsWith("latin1.md");
			assertThat(problem.message()).isEqualTo("is not valid UTF-8");
		});
	}

	@Test
	void symbolicLinksAreNotFollowed(@TempDir Path outside) throws IOException {
		Path secret = outside.resolve("secret.md");
		Files.writeString(secret, "# Secret");
		write("page.md", "# Page");
		Files.createSymbolicLink(this.folder.resolve("link.md"), secret);
		Files.createSymbolicLink(this.folder.resolve("linked-folder"), outside);

		assertThat(MarkdownKnowledgeLoader.load(this.folder).pages()).extracting(KnowledgePage::id)
			.containsExactly("page");
	}

	@Test
	void aMissingFolderIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MarkdownKnowledgeLoader.load(this.folder.resolve("missing")))
			.withMessageContaining("is not a readable folder");
	}

	private void write(String path, String text) throws IOException {
		Path file = this.folder.resolve(path);
		Files.createDirectories(file.getParent());
		Files.writeString(file, text, StandardCharsets.UTF_8);
	}

}
