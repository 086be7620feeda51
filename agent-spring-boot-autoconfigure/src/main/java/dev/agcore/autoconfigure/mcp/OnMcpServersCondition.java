package dev.agcore.autoconfigure.mcp;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code agent.mcp.servers} has at least one entry.
 */
final class OnMcpServersCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, McpClientProperties.Server> servers = Binder.get(context.getEnvironment())
			.bind(McpServerSettingsMapper.PREFIX, Bindable.mapOf(String.class, McpClientProperties.Server.class))
			.orElse(Map.of());
		return servers.isEmpty() ? ConditionOutcome.noMatch("no " + McpServerSettingsMapper.PREFIX + " entries")
				: ConditionOutcome.match(servers.size() + " " + McpServerSettingsMapper.PREFIX + " entries");
	}

}
