/**
 * Auto-configuration of the MCP servers agents use ({@code agent.mcp.servers}): the
 * {@link dev.agcore.mcp.McpClientRegistry}, connected once the application context is
 * ready, and its tools given to every configured agent within its tool scope.
 */
@NullMarked
package dev.agcore.autoconfigure.mcp;

import org.jspecify.annotations.NullMarked;
