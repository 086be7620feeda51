/**
 * Auto-configuration of the MCP server: chosen tools and agents offered to MCP clients
 * over streamable HTTP on the application's WebFlux server.
 */
@NullMarked
package dev.agcore.autoconfigure.mcp.server;

import org.jspecify.annotations.NullMarked;
