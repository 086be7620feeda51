package dev.agcore.autoconfigure.web.ui;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The chat page's files in a native image: its assets and the two WebJar files it serves,
 * with the WebJars' {@code pom.properties} that name their versions.
 */
final class AgentUiRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources()
			.registerPattern(AgentUiRoutes.ASSETS + "*")
			.registerPattern("META-INF/maven/org.webjars.npm/marked/pom.properties")
			.registerPattern("META-INF/maven/org.webjars.npm/dompurify/pom.properties")
			.registerPattern("META-INF/resources/webjars/marked/*/lib/marked.esm.js")
			.registerPattern("META-INF/resources/webjars/dompurify/*/dist/purify.es.mjs");
	}

}
