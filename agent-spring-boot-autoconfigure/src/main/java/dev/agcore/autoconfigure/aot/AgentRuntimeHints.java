package dev.agcore.autoconfigure.aot;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.util.ClassUtils;

/**
 * The starter's own run-time needs in a native image: JSON binding of every record and
 * enum of the {@code dev.agcore} packages (provider wire types, run, workflow and plan
 * JSON, the web and Actuator views, built-in tools' inputs), the JDBC schema scripts, the
 * default prompt template folder, and the resources of optional libraries the starter
 * reads (Lucene's stop words, JTokkit's encodings).
 * <p>
 * The types are found by scanning rather than listed, so that a record added later is
 * covered without touching this class; the scan runs only at build time (AOT
 * processing), never in the application.
 */
final class AgentRuntimeHints implements RuntimeHintsRegistrar {

	/** The starter's classes, scanned for records and enums. */
	static final String TYPES = "classpath*:dev/agcore/**/*.class";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		registerJsonTypes(hints, classLoader);
		// JdbcSchema reads dev/agcore/<store>/jdbc/schema-<platform>.sql
		hints.resources().registerPattern("dev/agcore/*/jdbc/schema-*.sql");
		// agent.prompts.location's default; another location is covered by AgentResourcesAotProcessor
		hints.resources().registerPattern("prompts/**");
		hints.resources()
			.registerPatternIfPresent(classLoader, "org/apache/lucene/analysis/snowball",
					(resources) -> resources.includes("org/apache/lucene/analysis/snowball/*.txt"));
		hints.resources()
			.registerPatternIfPresent(classLoader, "com/knuddels/jtokkit",
					(resources) -> resources.includes("com/knuddels/jtokkit/*.tiktoken"));
	}

	private static void registerJsonTypes(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(classLoader);
		CachingMetadataReaderFactory readers = new CachingMetadataReaderFactory(resolver);
		BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
		try {
			for (Resource resource : resolver.getResources(TYPES)) {
				MetadataReader reader = readers.getMetadataReader(resource);
				String superClass = reader.getClassMetadata().getSuperClassName();
				String name = reader.getClassMetadata().getClassName();
				if ("java.lang.Record".equals(superClass) || "java.lang.Enum".equals(superClass)) {
					Class<?> type = load(name, classLoader);
					if (type != null) {
						register(binding, hints, type);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot scan " + TYPES + " for JSON types", ex);
		}
	}

	// a record of an optional library's edge (the WebFlux security bridge) may load while a
	// component's type does not: it is never bound without that library, so it needs no hint
	private static void register(BindingReflectionHintsRegistrar binding, RuntimeHints hints, Class<?> type) {
		try {
			binding.registerReflectionHints(hints.reflection(), type);
		}
		catch (LinkageError ex) {
			// nothing to register
		}
	}

	// a type whose optional library is absent is never bound, so it needs no hint
	private static @Nullable Class<?> load(String name, @Nullable ClassLoader classLoader) {
		try {
			return ClassUtils.forName(name, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

}
