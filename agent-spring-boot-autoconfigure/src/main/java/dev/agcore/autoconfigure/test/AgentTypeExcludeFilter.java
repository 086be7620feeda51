package dev.agcore.autoconfigure.test;

import java.io.IOException;
import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.tool.ToolCallback;

import org.springframework.boot.test.context.filter.annotation.StandardAnnotationCustomizableTypeExcludeFilter;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * Keeps the tool beans of an {@link AgentTest @AgentTest} in component scanning: classes
 * with {@link Tool @Tool} methods, tool callbacks and middleware.
 */
final class AgentTypeExcludeFilter extends StandardAnnotationCustomizableTypeExcludeFilter<AgentTest> {

	private static final Set<Class<?>> DEFAULT_INCLUDES = Set.of(ToolCallback.class, AgentMiddleware.class);

	AgentTypeExcludeFilter(Class<?> testClass) {
		super(testClass);
	}

	@Override
	protected Set<Class<?>> getKnownIncludes() {
		return DEFAULT_INCLUDES;
	}

	@Override
	protected boolean defaultInclude(MetadataReader metadataReader, MetadataReaderFactory metadataReaderFactory)
			throws IOException {
		return metadataReader.getAnnotationMetadata().hasAnnotatedMethods(Tool.class.getName())
				|| super.defaultInclude(metadataReader, metadataReaderFactory);
	}

}
