package dev.agcore.mcp;

import java.util.Map;

import dev.agcore.json.AgentJson;
import dev.agcore.support.LogSafe;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolMetadata;
import dev.agcore.tool.ToolOrigin;
import dev.agcore.tool.ToolPermission;
import dev.agcore.tool.ToolSpec;
import dev.agcore.tool.schema.ToolSchemas;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool of an MCP server, as agents see it: named {@code <server>__<tool>}, with the
 * server's description and its input schema normalised as the application's own tools'
 * are, a permission from the tool's annotations as the MCP specification reads them
 * ({@link #permission}), the category
 * {@code mcp:<server>} and its {@linkplain ToolOrigin origin} for scopes. An
 * {@code isError} result throws an {@link McpToolException} with the server's text, which
 * the agent feeds back to the model as the tool's error.
 */
final class McpToolCallback implements ToolCallback {

	private static final Logger logger = LoggerFactory.getLogger(McpToolCallback.class);

	private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {
	};

	private final String server;

	private final McpSchema.Tool tool;

	private final McpToolCall call;

	private final ToolSpec spec;

	private final ToolMetadata metadata;

	private final ToolOrigin origin;

	McpToolCallback(String server, String name, McpSchema.Tool tool, McpToolCall call, boolean trusted) {
		this.server = server;
		this.tool = tool;
		this.call = call;
		this.spec = new ToolSpec(name, description(tool), schema(server, tool));
		this.metadata = ToolMetadata.DEFAULT.withPermission(permission(tool.annotations(), trusted))
			.withCategory(ToolOrigin.MCP + ":" + server);
		this.origin = ToolOrigin.mcp(server, tool.name());
	}

	@Override
	public ToolSpec spec() {
		return this.spec;
	}

	@Override
	public ToolMetadata metadata() {
		return this.metadata;
	}

	@Override
	public ToolOrigin origin() {
		return this.origin;
	}

	@Override
	public String source() {
		return "mcp server '" + this.server + "'";
	}

	@Override
	public String call(String arguments, ToolContext context) throws Exception {
		McpSchema.CallToolResult result = this.call.call(this.tool.name(), arguments(arguments), context.progress());
		String text = McpContentText.of(result, AgentJson.mapper());
		if (Boolean.TRUE.equals(result.isError())) {
			throw new McpToolException(text.isBlank() ? "the tool reported an error without saying which" : text);
		}
		return text;
	}

	static Map<String, Object> arguments(String arguments) {
		if (arguments.isBlank()) {
			return Map.of();
		}
		try {
			Map<String, Object> map = AgentJson.mapper().readValue(arguments, ARGUMENTS);
			return (map != null) ? map : Map.of();
		}
		catch (JacksonException ex) {
			throw new ToolArgumentsException("the arguments must be a JSON object: " + ex.getOriginalMessage(), ex);
		}
	}

	/**
	 * The permission of a tool from its annotations, with the MCP specification's defaults:
	 * {@code readOnlyHint} is false and {@code destructiveHint} true when missing, so a tool
	 * that says nothing is destructive. Annotations from an untrusted server are untrusted
	 * (the specification says so: a server can claim anything), so every tool of such a
	 * server is destructive whatever it claims; a trusted server's {@code readOnlyHint}
	 * makes a tool read-only and its {@code destructiveHint: false} makes it write.
	 */
	static ToolPermission permission(McpSchema.@Nullable ToolAnnotations annotations, boolean trusted) {
		if (!trusted || annotations == null) {
			return ToolPermission.DESTRUCTIVE;
		}
		// a tool that says it both reads only and destroys is taken at its worst
		if (Boolean.TRUE.equals(annotations.destructiveHint())) {
			return ToolPermission.DESTRUCTIVE;
		}
		if (Boolean.TRUE.equals(annotations.readOnlyHint())) {
			return ToolPermission.READ_ONLY;
		}
		return Boolean.FALSE.equals(annotations.destructiveHint()) ? ToolPermission.WRITE : ToolPermission.DESTRUCTIVE;
	}

	private static String description(McpSchema.Tool tool) {
		if (tool.description() != null && !tool.description().isBlank()) {
			return tool.description();
		}
		return (tool.title() != null) ? tool.title() : tool.name();
	}

	/** The server's schema, normalised; one that cannot be used becomes "any object". */
	static ObjectNode schema(String server, McpSchema.Tool tool) {
		JsonMapper mapper = AgentJson.mapper();
		Map<String, Object> input = tool.inputSchema();
		ObjectNode schema = (input != null) ? mapper.valueToTree(input) : mapper.createObjectNode();
		try {
			return ToolSchemas.normalize(schema);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("MCP server '{}': the input schema of tool '{}' cannot be used ({}); the model is told "
					+ "it takes any object", LogSafe.text(server), LogSafe.text(tool.name()),
					LogSafe.text(ex.getMessage()));
			return ToolSchemas.anyObject();
		}
	}

	@Override
	public String toString() {
		return "McpToolCallback[" + this.spec.name() + " of server '" + this.server + "']";
	}

}
