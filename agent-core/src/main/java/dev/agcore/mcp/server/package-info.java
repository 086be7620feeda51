/**
 * An application's tools and agents offered to MCP clients (Claude Desktop, the MCP
 * Inspector, other agents) through the official MCP Java SDK: {@link McpServerTools}
 * builds the SDK's tool specifications, for any of its server transports.
 */
@NullMarked
package dev.agcore.mcp.server;

import org.jspecify.annotations.NullMarked;
