package dev.agcore.autoconfigure.retrieval;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.retrieval.knowledge.KnowledgePage;
import dev.agcore.retrieval.knowledge.MarkdownKnowledgeLoader;

import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.io.support.ResourcePatternResolver;
import org.springframework.core.io.support.ResourcePatternUtils;

/**
 * Reads the Markdown files of {@code agent.knowledge.path}: a folder of the file system
 * (also a {@code classpath:} folder that is one, as in an IDE or in tests), or a
 * {@code classpath:} folder inside a jar.
 */
final class KnowledgeFolder {

	static final String PROPERTY = "agent.knowledge.path";

	private KnowledgeFolder() {
	}

	/**
	 * Load the pages.
	 * @throws AgentConfigurationException naming the property if the location is not a
	 * readable folder
	 */
	static MarkdownKnowledgeLoader.Result load(String location, ResourceLoader resourceLoader) {
		String folder = location.strip();
		if (folder.isEmpty()) {
			throw invalid(location, "is empty");
		}
		if (!folder.startsWith(ResourceLoader.CLASSPATH_URL_PREFIX)) {
			String path = folder.startsWith("file:") ? folder.substring("file:".length()) : folder;
			return loadPath(location, Path.of(path));
		}
		String root = folder.endsWith("/") ? folder : folder + "/";
		Resource resource = resourceLoader.getResource(root);
		if (!resource.exists()) {
			throw invalid(location, "does not exist");
		}
		if (resource.isFile()) {
			try {
				return loadPath(location, resource.getFile().toPath());
			}
			catch (IOException ex) {
				throw invalid(location, "cannot be read: " + ex.getMessage());
			}
		}
		return loadArchive(location, root, resource, ResourcePatternUtils.getResourcePatternResolver(resourceLoader));
	}

	private static MarkdownKnowledgeLoader.Result loadPath(String location, Path path) {
		try {
			return MarkdownKnowledgeLoader.load(path);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(location, "is not a readable folder (" + path.toAbsolutePath() + ")");
		}
	}

	private static MarkdownKnowledgeLoader.Result loadArchive(String location, String root, Resource rootResource,
			ResourcePatternResolver resolver) {
		List<KnowledgePage> pages = new ArrayList<>();
		List<MarkdownKnowledgeLoader.Problem> problems = new ArrayList<>();
		try {
			String rootUrl = rootResource.getURL().toString();
			for (Resource file : resolver.getResources(root + "**/*.md")) {
				String url = file.getURL().toString();
				if (!url.startsWith(rootUrl)) {
					continue;
				}
				String relative = URLDecoder.decode(url.substring(rootUrl.length()).replace("+", "%2B"),
						StandardCharsets.UTF_8);
				if (!MarkdownKnowledgeLoader.isMarkdown(relative)) {
					continue;
				}
				if (pages.size() + problems.size() >= MarkdownKnowledgeLoader.MAX_FILES) {
					problems.add(new MarkdownKnowledgeLoader.Problem(location,
							"more than " + MarkdownKnowledgeLoader.MAX_FILES + " files; the rest are skipped"));
					break;
				}
				try (InputStream in = file.getInputStream()) {
					byte[] bytes = in.readNBytes(MarkdownKnowledgeLoader.MAX_FILE_SIZE + 1);
					pages.add(MarkdownKnowledgeLoader.parse(relative, bytes));
				}
				catch (IOException | IllegalArgumentException ex) {
					problems.add(new MarkdownKnowledgeLoader.Problem(url, ex.getMessage()));
				}
			}
		}
		catch (IOException ex) {
			throw invalid(location, "cannot be listed: " + ex.getMessage());
		}
		return new MarkdownKnowledgeLoader.Result(pages, problems);
	}

	private static AgentConfigurationException invalid(String location, String problem) {
		return new AgentConfigurationException(PROPERTY + " '" + location + "' " + problem,
				"Set " + PROPERTY + " to a folder of Markdown files, such as ./knowledge or classpath:knowledge, "
						+ "or remove it.");
	}

}
