package dev.agcore.autoconfigure.test;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.test.context.SpringBootTestContextBootstrapper;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;

/**
 * Bootstraps an {@link AgentTest @AgentTest}: its {@code properties} go into the
 * environment.
 */
class AgentTestContextBootstrapper extends SpringBootTestContextBootstrapper {

	@Override
	protected String @Nullable [] getProperties(Class<?> testClass) {
		return MergedAnnotations.from(testClass, SearchStrategy.INHERITED_ANNOTATIONS)
			.get(AgentTest.class)
			.getValue("properties", String[].class)
			.orElse(null);
	}

}
