package dev.agcore.docs.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders docs/reference/properties.md from the configuration metadata that the
 * annotation processor writes into the jars ({@code META-INF/spring-configuration-metadata.json},
 * with the additional metadata merged in): every {@code agent.*} property, grouped by its
 * first two segments, with its type, default, description and, from the hints, its values.
 */
public final class PropertiesReference {

	static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private static final Pattern QUALIFIED = Pattern.compile("(?:[a-z][a-z0-9_]*\\.)+([A-Z][\\w$]*)");

	private PropertiesReference() {
	}

	/**
	 * Render the reference from the metadata on a class loader's classpath.
	 * @param classLoader the class loader
	 * @return the Markdown page
	 */
	public static String render(ClassLoader classLoader) {
		Map<String, JsonNode> properties = new TreeMap<>();
		Map<String, List<String>> values = new LinkedHashMap<>();
		JsonMapper mapper = JsonMapper.builder().build();
		try {
			for (URL url : Collections.list(classLoader.getResources(METADATA))) {
				try (InputStream in = url.openStream()) {
					JsonNode metadata = mapper.readTree(in);
					for (JsonNode property : metadata.path("properties")) {
						String name = property.path("name").asString();
						if (name.startsWith("agent.")) {
							properties.putIfAbsent(name, property);
						}
					}
					for (JsonNode hint : metadata.path("hints")) {
						List<String> hinted = new ArrayList<>();
						hint.path("values").forEach((value) -> hinted.add(value.path("value").asString()));
						values.put(hint.path("name").asString(), hinted);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return page(properties, values);
	}

	private static String page(Map<String, JsonNode> properties, Map<String, List<String>> values) {
		Map<String, List<JsonNode>> groups = new TreeMap<>();
		properties.forEach((name, property) -> groups.computeIfAbsent(group(name), (key) -> new ArrayList<>())
			.add(property));
		StringBuilder page = new StringBuilder();
		page.append("# Configuration properties\n\n")
			.append("<!-- Generated from the configuration metadata by the docs module's PropertiesReferenceTests: do not edit.\n")
			.append("     Refresh: mvn -B -pl docs -am test -Dtest=PropertiesReferenceTests -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true -->\n\n")
			.append("Every `agent.*` property of the starter, generated from the metadata your IDE completes\n")
			.append("`application.yml` with. `*` stands for a name of your choice (an agent, a provider, a model,\n")
			.append("a server). [configuration.md](../configuration.md) explains how they fit together.\n\n");
		groups.keySet().forEach((group) -> page.append("- [`").append(group).append("`](#").append(anchor(group)).append(")\n"));
		groups.forEach((group, members) -> {
			page.append("\n## ").append(group).append("\n\n");
			page.append("| Property | Type | Default | Description |\n|---|---|---|---|\n");
			for (JsonNode property : members) {
				String name = property.path("name").asString();
				page.append("| `").append(name).append("` | ")
					.append(code(type(property.path("type").asString(""))))
					.append(" | ")
					.append(code(defaultValue(property.path("defaultValue"))))
					.append(" | ")
					.append(description(property, values.get(name)))
					.append(" |\n");
			}
		});
		return page.toString();
	}

	/** The first two segments, and the third under a map key ({@code agent.agents.*.memory}). */
	static String group(String name) {
		String[] segments = name.split("\\.");
		return (segments.length > 2) ? segments[0] + "." + segments[1] : name;
	}

	private static String anchor(String group) {
		return group.replace(".", "");
	}

	static String type(String type) {
		Matcher matcher = QUALIFIED.matcher(type);
		StringBuilder simple = new StringBuilder();
		while (matcher.find()) {
			String name = matcher.group(1);
			matcher.appendReplacement(simple, Matcher.quoteReplacement(name.substring(name.lastIndexOf('$') + 1)));
		}
		matcher.appendTail(simple);
		return simple.toString().replace(",", ", ");
	}

	private static String defaultValue(JsonNode value) {
		if (value.isMissingNode() || value.isNull()) {
			return "";
		}
		if (value.isArray()) {
			List<String> items = new ArrayList<>();
			value.forEach((item) -> items.add(item.asString()));
			return String.join(", ", items);
		}
		return value.asString();
	}

	private static String description(JsonNode property, List<String> values) {
		String text = property.path("description").asString("").replace("\n", " ").replace("|", "\\|").strip();
		if (property.has("deprecation")) {
			text = "**Deprecated.** " + text;
		}
		if (values != null && !values.isEmpty()) {
			text = text + " One of: `" + String.join("`, `", values) + "`.";
		}
		return text;
	}

	private static String code(String text) {
		return text.isEmpty() ? "" : "`" + text.replace("|", "\\|") + "`";
	}

}
