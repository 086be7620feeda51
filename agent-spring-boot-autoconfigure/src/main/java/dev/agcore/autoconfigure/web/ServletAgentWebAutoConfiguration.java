package dev.agcore.autoconfigure.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * Says why {@code agent.web.enabled=true} has no effect in a servlet (Spring MVC)
 * application, instead of leaving {@code /agents} a silent 404.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty("agent.web.enabled")
public final class ServletAgentWebAutoConfiguration {

	static final String WARNING = "agent.web.enabled=true, but this is a servlet (Spring MVC) application: the agents' "
			+ "HTTP endpoint needs a reactive one. Add spring-boot-starter-webflux instead of spring-boot-starter-web, "
			+ "or set spring.main.web-application-type=reactive if both are on the classpath.";

	private static final Log logger = LogFactory.getLog(ServletAgentWebAutoConfiguration.class);

	@Bean
	static SmartInitializingSingleton agentWebServletWarning() {
		return () -> logger.warn(WARNING);
	}

}
