package dev.agcore.autoconfigure.mcp.server;

import java.util.List;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.tool.AgentTools;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.mcp.server.McpServerTools;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.tool.secret.SecretResolver;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import org.springframework.web.reactive.function.server.RouterFunction;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the MCP server, when
 * {@code agent.mcp.server.enabled=true} in a reactive web application with the MCP Java
 * SDK and its WebFlux transport on the class path: the tools of
 * {@code agent.mcp.server.tools} and the agents of {@code agent.mcp.server.agents} are
 * offered over streamable HTTP at {@code agent.mcp.server.endpoint}, on the application's
 * own WebFlux server.
 * <p>
 * The endpoint is a route like any other: the application's Spring Security filter
 * chain, when there is one, applies to it; without one it is open to whoever reaches the
 * server. Browser pages from other origins than {@code agent.mcp.server.allowed-origins}
 * are refused.
 * <p>
 * Beans, each replaceable by one of the same type ({@code mcpServerRouterFunction} by
 * name): {@link McpServerTools}, the SDK's {@link WebFluxStreamableServerTransportProvider}
 * and {@link McpAsyncServer}, and the {@link RouterFunction} of the endpoint.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, ToolAutoConfiguration.class })
@ConditionalOnClass({ McpAsyncServer.class, WebFluxStreamableServerTransportProvider.class,
		JacksonMcpJsonMapper.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("agent.mcp.server.enabled")
@EnableConfigurationProperties(McpServerProperties.class)
public final class McpServerAutoConfiguration {

	/** Name of the bean of the endpoint's routes. */
	static final String ROUTER_FUNCTION_BEAN_NAME = "mcpServerRouterFunction";

	// the SDK's messages with plain Jackson: the application's mapper settings (naming
	// strategies, inclusion) must not change the protocol
	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	@Bean
	@ConditionalOnMissingBean
	McpServerTools mcpServerTools(McpServerProperties properties, AgentTools agentTools, AgentRegistry agents,
			SecretResolver secretResolver, KeyValueStore keyValueStore, ObjectProvider<Auditor> auditor) {
		return McpServerExposure.tools(properties, agentTools, agents, secretResolver, keyValueStore,
				auditor.getIfAvailable(() -> Auditor.NONE));
	}

	@Bean
	@ConditionalOnMissingBean
	WebFluxStreamableServerTransportProvider mcpServerTransport(McpServerProperties properties) {
		return WebFluxStreamableServerTransportProvider.builder()
			.jsonMapper(JSON)
			.messageEndpoint(endpoint(properties.getEndpoint()))
			.securityValidator(originValidator(properties.getAllowedOrigins()))
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	McpAsyncServer mcpAsyncServer(WebFluxStreamableServerTransportProvider transport, McpServerTools tools,
			McpServerProperties properties, Environment environment) {
		McpServer.AsyncSpecification<?> server = McpServer.async(transport)
			.serverInfo(name(properties, environment), version(properties, environment))
			.capabilities(ServerCapabilities.builder().tools(false).build())
			.jsonMapper(JSON)
			.tools(tools.specifications());
		if (StringUtils.hasText(properties.getInstructions())) {
			server.instructions(properties.getInstructions());
		}
		return server.build();
	}

	// the server is a parameter: building it gives the transport its sessions, which a
	// request that arrives before would lack
	@Bean(ROUTER_FUNCTION_BEAN_NAME)
	@ConditionalOnMissingBean(name = ROUTER_FUNCTION_BEAN_NAME)
	RouterFunction<?> mcpServerRouterFunction(WebFluxStreamableServerTransportProvider transport,
			McpAsyncServer server) {
		return transport.getRouterFunction();
	}

	private static String endpoint(String endpoint) {
		String path = endpoint.strip();
		while (path.length() > 1 && path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		if (!path.startsWith("/") || path.length() == 1 || path.contains("{") || path.contains("*")) {
			throw new AgentConfigurationException(
					"agent.mcp.server.endpoint must be a path such as /mcp (was '" + endpoint + "')",
					"Set agent.mcp.server.endpoint to a path starting with '/', without patterns, e.g. /mcp.");
		}
		return path;
	}

	private static ServerTransportSecurityValidator originValidator(List<String> allowedOrigins) {
		for (String origin : allowedOrigins) {
			if (!StringUtils.hasText(origin)) {
				throw new AgentConfigurationException("agent.mcp.server.allowed-origins has an empty entry",
						"Remove the empty entry from agent.mcp.server.allowed-origins.");
			}
		}
		if (allowedOrigins.stream().anyMatch((origin) -> origin.strip().equals("*"))) {
			return ServerTransportSecurityValidator.NOOP;
		}
		return DefaultServerTransportSecurityValidator.builder()
			.allowedOrigins(allowedOrigins.stream().map(String::strip).toList())
			.build();
	}

	private static String name(McpServerProperties properties, Environment environment) {
		String name = properties.getName();
		return StringUtils.hasText(name) ? name : environment.getProperty("spring.application.name", "agcore");
	}

	private static String version(McpServerProperties properties, Environment environment) {
		String version = properties.getVersion();
		return StringUtils.hasText(version) ? version
				: environment.getProperty("spring.application.version", "unknown");
	}

}
