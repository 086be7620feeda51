package dev.agcore.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.agcore.autoconfigure.AgentProperties.AgentSpec;
import dev.agcore.autoconfigure.AgentProperties.ModelSpec;
import dev.agcore.autoconfigure.AgentProperties.Provider;
import dev.agcore.autoconfigure.mcp.McpClientProperties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * The configuration processor does not descend into map values, so every key under
 * {@code agent.providers.<name>}, {@code agent.agents.<name>} and {@code agent.mcp.servers.<name>} is described by hand in
 * {@code additional-spring-configuration-metadata.json}, named with {@code *} for the
 * map key. These tests walk the JavaBean properties of the value classes, as the binder
 * does, so a property added without metadata, or metadata whose type or default no longer
 * holds, fails the build.
 */
class MapValueMetadataTests {

	private static final Map<String, Class<?>> MAP_VALUES = Map.of("agent.providers.*", Provider.class,
			"agent.agents.*", AgentSpec.class, "agent.models.*", ModelSpec.class, "agent.mcp.servers.*",
			McpClientProperties.Server.class);

	@Test
	void everyKeyOfAProviderOrAgentIsDescribed() throws IOException {
		Map<String, JsonNode> metadata = metadataProperties();
		Map<String, Leaf> leaves = leaves();
		assertThat(leaves).containsKeys("agent.agents.*.max-iterations",
				"agent.agents.*.middleware.model-call-limit.per-turn", "agent.agents.*.permissions.allow-tools",
				"agent.providers.*.response-timeout");
		assertThat(metadata).containsKeys(leaves.keySet().toArray(String[]::new));
		leaves.keySet()
			.forEach((name) -> assertThat(metadata.get(name).path("description").asString()).as(name).isNotBlank());
	}

	@Test
	void everyDescribedKeyOfAProviderOrAgentExists() throws IOException {
		Map<String, Leaf> leaves = leaves();
		assertThat(metadataProperties().keySet()
			.stream()
			.filter((name) -> MAP_VALUES.keySet().stream().anyMatch((prefix) -> name.startsWith(prefix + "."))))
			.allSatisfy((name) -> assertThat(leaves).containsKey(name));
	}

	@Test
	void describedTypesAreTheJavaTypes() throws IOException {
		Map<String, JsonNode> metadata = metadataProperties();
		assertSoftly((softly) -> described(metadata).forEach((name, leaf) -> softly
			.assertThat(metadata.get(name).path("type").asString())
			.as(name)
			.isEqualTo(leaf.typeName())));
	}

	@Test
	void describedDefaultsAreTheRealDefaults() throws IOException {
		Map<String, JsonNode> metadata = metadataProperties();
		assertSoftly((softly) -> described(metadata).forEach((name, leaf) -> {
			JsonNode described = metadata.get(name).get("defaultValue");
			Object actual = leaf.defaultValue();
			if (described == null) {
				softly.assertThat(isUnset(actual))
					.as("%s has default %s, which the metadata does not give", name, actual)
					.isTrue();
			}
			else {
				// converted as the binder converts a value from application.yml
				Object converted = ApplicationConversionService.getSharedInstance()
					.convert(described.asString(), ClassUtils.resolvePrimitiveIfNecessary(leaf.type()));
				softly.assertThat(converted).as(name).isEqualTo(actual);
			}
		}));
	}

	// the missing ones are reported by everyKeyOfAProviderOrAgentIsDescribed
	private static Map<String, Leaf> described(Map<String, JsonNode> metadata) {
		Map<String, Leaf> leaves = leaves();
		leaves.keySet().retainAll(metadata.keySet());
		return leaves;
	}

	private static boolean isUnset(Object value) {
		return value == null || (value instanceof Collection<?> collection && collection.isEmpty())
				|| (value instanceof Map<?, ?> map && map.isEmpty());
	}

	private static Map<String, Leaf> leaves() {
		Map<String, Leaf> leaves = new TreeMap<>();
		MAP_VALUES.forEach((prefix, type) -> collect(prefix, BeanUtils.instantiateClass(type), leaves));
		return leaves;
	}

	// walks the properties the binder binds: those with a getter, nested ones by their getter alone
	private static void collect(String prefix, Object instance, Map<String, Leaf> leaves) {
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(instance.getClass())) {
			Method getter = property.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			String name = prefix + "." + kebab(property.getName());
			Class<?> type = property.getPropertyType();
			Object value = invoke(getter, instance);
			if (isNested(type)) {
				// a presence-switched section is null by default; its own defaults apply once present
				collect(name, (value != null) ? value : BeanUtils.instantiateClass(type), leaves);
			}
			else {
				leaves.put(name, new Leaf(getter, type, value));
			}
		}
	}

	private static boolean isNested(Class<?> type) {
		return type.getName().startsWith("dev.agcore.autoconfigure.") && !type.isEnum();
	}

	private static Object invoke(Method getter, Object instance) {
		try {
			return getter.invoke(instance);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String kebab(String name) {
		StringBuilder kebab = new StringBuilder();
		for (char c : name.toCharArray()) {
			if (Character.isUpperCase(c)) {
				kebab.append('-').append(Character.toLowerCase(c));
			}
			else {
				kebab.append(c);
			}
		}
		return kebab.toString();
	}

	// the merged file the configuration processor wrote, as IDEs read it from the jar
	private static Map<String, JsonNode> metadataProperties() throws IOException {
		Map<String, JsonNode> properties = new LinkedHashMap<>();
		Enumeration<URL> resources = MapValueMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		JsonMapper mapper = JsonMapper.builder().build();
		while (resources.hasMoreElements()) {
			try (InputStream in = resources.nextElement().openStream()) {
				for (JsonNode property : mapper.readTree(in).path("properties")) {
					properties.put(property.path("name").asString(), property);
				}
			}
		}
		return properties;
	}

	private record Leaf(Method getter, Class<?> type, Object defaultValue) {

		// as the configuration processor writes types: primitives boxed, no spaces
		String typeName() {
			String name = this.getter.getGenericReturnType().getTypeName().replace(", ", ",");
			return this.type.isPrimitive() ? ClassUtils.resolvePrimitiveIfNecessary(this.type).getName() : name;
		}

	}

}
