package dev.agcore.mcp.server;

import java.time.Duration;

import dev.agcore.audit.Auditor;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.tool.permission.ToolPermissionPolicy;
import dev.agcore.tool.secret.SecretResolver;

/**
 * What every tool call over MCP runs with, the same as an agent's tool calls.
 *
 * @param permissionPolicy decides whether a call may run
 * @param secretResolver resolves secret references in eligible arguments
 * @param store the store behind the tools' session and long-term memory
 * @param toolTimeout how long a tool without a timeout of its own may run
 * @param auditor told every call, as an agent's tool calls are told
 */
record CallSettings(ToolPermissionPolicy permissionPolicy, SecretResolver secretResolver, KeyValueStore store,
		Duration toolTimeout, Auditor auditor) {

}
