/**
 * Agents use the tools, resources and prompts of MCP servers: one
 * {@link dev.agcore.mcp.McpConnection} per configured server (stdio, streamable HTTP or
 * legacy SSE), built on the official MCP Java SDK's asynchronous client and reconnecting
 * with backoff, and an {@link dev.agcore.mcp.McpClientRegistry} of them all that agents
 * ask for the servers' current tools each turn. Nothing here does I/O in a constructor
 * or blocks an event-loop thread.
 * <p>
 * Needs the optional dependencies {@code io.modelcontextprotocol.sdk:mcp-core},
 * {@code mcp-json-jackson3} and, for HTTP, {@code org.springframework.ai:mcp-spring-webflux}.
 */
@NullMarked
package dev.agcore.mcp;

import org.jspecify.annotations.NullMarked;
