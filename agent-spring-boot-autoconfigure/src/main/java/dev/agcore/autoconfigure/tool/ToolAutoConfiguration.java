package dev.agcore.autoconfigure.tool;

import dev.agcore.Tool;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link ToolRegistry}: every
 * {@link ToolCallback} bean and every {@link Tool @Tool} method of a singleton bean.
 *
 * @since 0.1.0
 */
@AutoConfiguration
public final class ToolAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ToolRegistry toolRegistry(ListableBeanFactory beanFactory) {
		return new ToolBeans(beanFactory).registry();
	}

}
