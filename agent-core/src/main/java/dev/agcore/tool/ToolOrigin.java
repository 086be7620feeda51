package dev.agcore.tool;

import java.util.Objects;

/**
 * Where a tool that is not declared in the application comes from: a named remote server
 * and the tool's name there. Agents select such tools by origin
 * ({@code mcp:filesystem/read_*}, see {@link ToolScope}), whatever name they are given
 * locally.
 *
 * @param kind the kind of server, such as {@link #MCP}
 * @param server the server's configured name
 * @param name the tool's name on that server
 */
public record ToolOrigin(String kind, String server, String name) {

	/** The kind of tools from MCP servers. */
	public static final String MCP = "mcp";

	public ToolOrigin {
		Objects.requireNonNull(kind, "'kind' must not be null");
		Objects.requireNonNull(server, "'server' must not be null");
		Objects.requireNonNull(name, "'name' must not be null");
	}

	/**
	 * Return the origin of a tool of an MCP server.
	 * @param server the server's configured name
	 * @param name the tool's name on the server
	 * @return the origin
	 */
	public static ToolOrigin mcp(String server, String name) {
		return new ToolOrigin(MCP, server, name);
	}

}
