package dev.agcore.autoconfigure.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.autoconfigure.OverrideAutoConfiguration;
import org.springframework.boot.test.context.filter.annotation.TypeExcludeFilters;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.TestExecutionListeners;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * A test of agents without a network: starts only the agent auto-configurations (those
 * listed in {@code META-INF/spring/dev.agcore.autoconfigure.test.AgentTest.imports}:
 * models, tools, in-memory conversation store, middleware, metrics, prompts, agents and
 * chains; no web endpoint, actuator, MCP, JDBC or Redis), with a
 * {@link dev.agcore.testing.ScriptedChatModel} bean in place of every model of
 * {@code agent.models} and {@code agent.providers}, and a {@code SimpleMeterRegistry}
 * unless the test provides a registry. Inject the {@code ScriptedChatModel} to script
 * what the model answers; it is reset before each test.
 * <p>
 * Component scanning keeps only tool beans: classes with {@link dev.agcore.Tool @Tool}
 * methods, {@link dev.agcore.tool.ToolCallback}s and
 * {@link dev.agcore.middleware.AgentMiddleware}s. Add other beans with {@code @Import},
 * more auto-configurations with {@code @ImportAutoConfiguration}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@BootstrapWith(AgentTestContextBootstrapper.class)
@ExtendWith(SpringExtension.class)
@OverrideAutoConfiguration(enabled = false)
@TypeExcludeFilters(AgentTypeExcludeFilter.class)
@ImportAutoConfiguration
@TestExecutionListeners(listeners = ScriptedChatModelResetListener.class,
		mergeMode = TestExecutionListeners.MergeMode.MERGE_WITH_DEFAULTS)
public @interface AgentTest {

	/**
	 * Properties in the form {@literal key=value} added to the environment before the
	 * test runs, such as {@code agent.agents.weather.system-prompt=...}.
	 * @return the properties
	 */
	String[] properties() default {};

	/**
	 * Whether the default filters (tool beans) apply to component scanning.
	 * @return whether to use the default filters
	 */
	boolean useDefaultFilters() default true;

	/**
	 * More beans to include from component scanning.
	 * @return the include filters
	 */
	Filter[] includeFilters() default {};

	/**
	 * Beans to exclude from component scanning.
	 * @return the exclude filters
	 */
	Filter[] excludeFilters() default {};

	/**
	 * Auto-configurations to leave out.
	 * @return the auto-configurations
	 */
	@AliasFor(annotation = ImportAutoConfiguration.class, attribute = "exclude")
	Class<?>[] excludeAutoConfiguration() default {};

}
