package dev.agcore.autoconfigure.mcp.server;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * Says why {@code agent.mcp.server.enabled=true} started no MCP server (not a reactive
 * web application, or the MCP SDK missing), instead of leaving the endpoint a silent 404.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class)
@ConditionalOnBooleanProperty("agent.mcp.server.enabled")
@ConditionalOnMissingBean(name = McpServerAutoConfiguration.ROUTER_FUNCTION_BEAN_NAME)
public final class McpServerUnavailableAutoConfiguration {

	static final String WARNING = "agent.mcp.server.enabled=true, but no MCP server was started: it needs a reactive "
			+ "(WebFlux) web application with io.modelcontextprotocol.sdk:mcp-core, "
			+ "io.modelcontextprotocol.sdk:mcp-json-jackson3 and org.springframework.ai:mcp-spring-webflux on the "
			+ "class path (the starter brings them).";

	private static final List<String> LIBRARIES = List.of("io.modelcontextprotocol.server.McpAsyncServer",
			"io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper",
			"org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider");

	private static final Log logger = LogFactory.getLog(McpServerUnavailableAutoConfiguration.class);

	@Bean
	static SmartInitializingSingleton mcpServerUnavailableWarning(ResourceLoader resourceLoader) {
		return () -> {
			ClassLoader classLoader = resourceLoader.getClassLoader();
			List<String> missing = LIBRARIES.stream()
				.filter((name) -> !ClassUtils.isPresent(name, classLoader))
				.toList();
			logger.warn(WARNING + (missing.isEmpty() ? " This application is not a reactive web application."
					: " Missing: " + missing + "."));
		};
	}

}
