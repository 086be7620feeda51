package dev.agcore.autoconfigure.prompt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.prompt.PromptException;
import dev.agcore.prompt.PromptTemplates;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.ResourcePatternResolver;

/**
 * Loads the template files of a folder into a {@link PromptTemplates} registry, each named
 * by its path below the folder without the extension.
 */
final class PromptFolder {

	private static final String CLASSPATH = "classpath:";

	private PromptFolder() {
	}

	/**
	 * Load and check the templates of a folder.
	 * @param location the folder, such as {@code classpath:prompts/}
	 * @param extension the templates' file extension, such as {@code .hbs}
	 * @param resolver finds the files
	 * @return the registry, every template compiled and its partials found
	 * @throws AgentConfigurationException naming the file that does not parse, or the
	 * template whose partials are missing or nest too deep
	 */
	static PromptTemplates load(String location, String extension, ResourcePatternResolver resolver) {
		String folder = location.endsWith("/") ? location : location + "/";
		// every jar's folder, not only the first one found
		String scan = folder.startsWith(CLASSPATH) ? "classpath*:" + folder.substring(CLASSPATH.length()) : folder;
		PromptTemplates templates = new PromptTemplates();
		Map<String, String> files = new LinkedHashMap<>();
		try {
			List<String> roots = new ArrayList<>();
			for (Resource root : resolver.getResources(scan)) {
				if (root.exists()) {
					roots.add(root.getURI().toString());
				}
			}
			for (Resource file : resolver.getResources(scan + "**/*" + extension)) {
				String uri = file.getURI().toString();
				String name = name(uri, roots, extension);
				String previous = files.putIfAbsent(name, uri);
				if (previous != null) {
					throw new AgentConfigurationException("Two prompt templates are named '" + name + "': " + previous
							+ " and " + uri, "Rename one of them, or remove the copy from one of the jars.");
				}
				register(templates, name, uri, file.getContentAsString(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new AgentConfigurationException("Prompt templates in " + location + " cannot be read: "
					+ ex.getMessage(), "Check agent.prompts.location.", ex);
		}
		try {
			templates.validate();
		}
		catch (PromptException ex) {
			throw new AgentConfigurationException("Prompt template '" + ex.template() + "' ("
					+ files.getOrDefault(ex.template(), location) + ") cannot be used: " + ex.getMessage(),
					"Fix the template, or add the partial it includes.", ex);
		}
		return templates;
	}

	private static void register(PromptTemplates templates, String name, String uri, String text) {
		try {
			templates.register(name, text);
		}
		catch (PromptException ex) {
			throw new AgentConfigurationException("Prompt template " + uri + " does not parse: " + ex.getMessage(),
					"Fix the template's syntax: {{var}}, {{#if x}}…{{else}}…{{/if}}, {{#each list}}…{{/each}}, "
							+ "{{#raw}}…{{/raw}} and {{> partial}}.",
					ex);
		}
	}

	private static String name(String uri, List<String> roots, String extension) {
		String relative = uri;
		for (String root : roots) {
			if (uri.startsWith(root)) {
				relative = uri.substring(root.length());
				break;
			}
		}
		relative = relative.startsWith("/") ? relative.substring(1) : relative;
		return relative.substring(0, relative.length() - extension.length());
	}

}
