package dev.agcore.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's explanation of a missing Agent wins over Spring Boot's generic one
 * whatever the classpath order: in a packaged application Boot's jar comes first, and
 * analyzers of equal order answer in classpath order.
 */
class FailureAnalyzerOrderTests {

	@Test
	void missingAgentAnalyzerAnswersBeforeBootsMissingBeanAnalyzerWhateverTheClasspathOrder() {
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, new StandardEnvironment());
		List<FailureAnalyzer> analyzers = new ArrayList<>(
				SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class, arguments));
		// as if Boot's jar came first on the classpath
		Collections.reverse(analyzers);
		AnnotationAwareOrderComparator.sort(analyzers);
		List<String> names = analyzers.stream().map((analyzer) -> analyzer.getClass().getSimpleName()).toList();

		assertThat(names).contains("NoSuchBeanDefinitionFailureAnalyzer");
		assertThat(names.indexOf("MissingAgentFailureAnalyzer"))
			.isLessThan(names.indexOf("NoSuchBeanDefinitionFailureAnalyzer"));
	}

}
