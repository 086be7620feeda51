package dev.agcore.autoconfigure.tool;

import java.time.Duration;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolMetadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A tool as people see it on the agent endpoint's {@code /{agent}/tools} and the
 * {@code agents} actuator endpoint.
 *
 * @param name the name the model calls it by
 * @param description what the model is told it does
 * @param category the group agents can select it by, or {@code null}
 * @param permission its permission: read-only, write, destructive or a custom one
 * @param returnDirect whether its result becomes the agent's answer
 * @param timeout its own timeout as an ISO-8601 duration ({@code PT10S}), or {@code null}
 * when the agent's tool timeout applies
 * @param inputSchema the JSON schema of its arguments, exactly as sent to the model
 * @since 0.1.0
 */
// the same keys everywhere, null included: the actuator's mapper would leave nulls out
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ToolDescriptor(String name, String description, @Nullable String category, String permission,
		boolean returnDirect, @Nullable String timeout, JsonNode inputSchema) {

	/**
	 * Describe a tool.
	 * @param tool the tool
	 * @return the descriptor
	 */
	public static ToolDescriptor of(ToolCallback tool) {
		ToolMetadata metadata = tool.metadata();
		Duration timeout = metadata.timeout();
		return new ToolDescriptor(tool.spec().name(), tool.spec().description(), metadata.category(),
				metadata.permission().value(), metadata.returnDirect(), (timeout != null) ? timeout.toString() : null,
				tool.spec().inputSchema());
	}

}
