package dev.agcore.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agcore.autoconfigure.mcp.McpClientAutoConfiguration;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnection;
import io.modelcontextprotocol.client.McpAsyncClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.ReactiveHealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code mcp} part of the {@code agents} health
 * contributor: one indicator per server of {@code agent.mcp.servers}, from its
 * connection's status (see {@link McpServerHealthIndicator}); no request is sent to the
 * servers.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpClientAutoConfiguration.class, before = AgentsHealthAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, McpAsyncClient.class })
public final class McpHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "mcpHealthContribution")
	@ConditionalOnBean(McpClientRegistry.class)
	AgentHealthContribution mcpHealthContribution(McpClientRegistry registry) {
		Map<String, HealthIndicator> indicators = new LinkedHashMap<>();
		for (McpConnection connection : registry.connections()) {
			indicators.put(connection.name(), new McpServerHealthIndicator(connection::status));
		}
		return new AgentHealthContribution("mcp",
				ReactiveHealthContributor.adapt(CompositeHealthContributor.fromMap(indicators)));
	}

}
