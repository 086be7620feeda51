package dev.agcore.autoconfigure.retrieval;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipException;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.MarkdownKnowledgeLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KnowledgeFolder}: Markdown files inside a jar, as in a packaged
 * application.
 */
class KnowledgeFolderTests {

	@TempDir
	Path folder;

	@Test
	void aClasspathFolderInsideAJarIsLoaded() throws IOException {
		Path jar = jar(Map.of("kb/retry.md", "# Retry\n\nThree times.", "kb/guides/缓存 配置.md", "# 缓存\n\n十分钟。",
				"kb/broken.md", "---\ntitle: x\n", "kb/.hidden/x.md", "# Hidden", "other/outside.md", "# Outside"));
		try (URLClassLoader classLoader = new URLClassLoader(new URL[] { jar.toUri().toURL() }, null)) {
			MarkdownKnowledgeLoader.Result result = KnowledgeFolder.load("classpath:kb",
					new DefaultResourceLoader(classLoader));

			assertThat(result.pages()).extracting(KnowledgePage::id)
				.containsExactlyInAnyOrder("retry", "guides/缓存 配置");
			assertThat(result.problems()).singleElement()
				.satisfies((problem) -> assertThat(problem.path()).endsWith("kb/broken.md"));
		}
	}

	@Test
	void aMissingClasspathFolderIsRefused() throws IOException {
		Path jar = jar(Map.of("kb/retry.md", "# Retry"));
		try (URLClassLoader classLoader = new URLClassLoader(new URL[] { jar.toUri().toURL() }, null)) {
			assertThatExceptionOfType(AgentConfigurationException.class)
				.isThrownBy(() -> KnowledgeFolder.load("classpath:nope", new DefaultResourceLoader(classLoader)))
				.withMessage("agent.knowledge.path 'classpath:nope' does not exist");
		}
	}

	private Path jar(Map<String, String> files) throws IOException {
		Path jar = this.folder.resolve("knowledge.jar");
		try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
			for (Map.Entry<String, String> file : files.entrySet()) {
				String[] parts = file.getKey().split("/");
				String directory = "";
				for (int i = 0; i < parts.length - 1; i++) {
					directory += parts[i] + "/";
					try {
						zip.putNextEntry(new JarEntry(directory));
						zip.closeEntry();
					}
					catch (ZipException ex) {
						// already there
					}
				}
				zip.putNextEntry(new JarEntry(file.getKey()));
				zip.write(file.getValue().getBytes(StandardCharsets.UTF_8));
				zip.closeEntry();
			}
		}
		return jar;
	}

}
