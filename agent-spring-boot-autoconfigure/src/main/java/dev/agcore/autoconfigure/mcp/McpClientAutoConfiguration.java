package dev.agcore.autoconfigure.mcp;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.UnknownPropertyCheck;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.mcp.McpClientRegistry;
import io.modelcontextprotocol.client.McpAsyncClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the MCP servers agents use, when
 * the MCP Java SDK is on the class path and {@code agent.mcp.servers} has entries:
 * <ul>
 * <li>the {@link McpClientRegistry}, built from the properties, every entry checked
 * first so that a mistake fails startup naming its property; building it does no
 * I/O;</li>
 * <li>a {@link org.springframework.context.SmartLifecycle} that connects the servers in
 * parallel once the context is ready, failing startup when a {@code required} server
 * cannot connect;</li>
 * <li>an {@link AgentToolSource} that gives every configured agent the servers' tools
 * within its {@code tools} scope ({@code mcp:<server>/<tool>} entries; all of them when
 * the agent has no {@code tools} list), and the servers' prompts as system prompts
 * written {@code mcp:<server>/<prompt>}.</li>
 * </ul>
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(McpAsyncClient.class)
@Conditional(OnMcpServersCondition.class)
@EnableConfigurationProperties(McpClientProperties.class)
public final class McpClientAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpClientRegistry mcpClientRegistry(McpClientProperties properties, Environment environment) {
		checkKeys(Binder.get(environment), properties);
		McpClientRegistry.Builder builder = McpClientRegistry.builder()
			.servers(McpServerSettingsMapper.settings(properties));
		try {
			builder.toolNameSeparator(properties.getToolNameSeparator());
		}
		catch (IllegalArgumentException ex) {
			throw new AgentConfigurationException("agent.mcp.tool-name-separator: " + ex.getMessage(),
					"Use letters, digits, '_' or '-', such as the default __.", ex);
		}
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean
	McpClientLifecycle mcpClientLifecycle(McpClientRegistry registry) {
		return new McpClientLifecycle(registry);
	}

	@Bean
	@ConditionalOnMissingBean(name = "mcpAgentToolSource")
	AgentToolSource mcpAgentToolSource(McpClientRegistry registry) {
		return new McpAgentToolSource(registry);
	}

	/**
	 * A misspelled key would silently leave a default in place: fail naming it. Keys of
	 * {@code agent.mcp.server} (the application's own MCP server) are not ours to check.
	 */
	private static void checkKeys(Binder binder, McpClientProperties properties) {
		Set<String> unknown = new LinkedHashSet<>(UnknownPropertyCheck.unknown(binder, McpServerSettingsMapper.PREFIX,
				properties.getServers().keySet(), McpClientProperties.Server.class));
		for (String name : UnknownPropertyCheck.unknown(binder, "agent", Set.of("mcp"), McpClientProperties.class)) {
			if (!name.startsWith("agent.mcp.server.") && !name.startsWith(McpServerSettingsMapper.PREFIX + ".")) {
				unknown.add(name);
			}
		}
		UnknownPropertyCheck.check(unknown);
	}

}
