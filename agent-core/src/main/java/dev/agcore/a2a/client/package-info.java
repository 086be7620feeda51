/**
 * The A2A client: remote agents that speak the Agent2Agent protocol (0.3, JSON-RPC),
 * offered to local agents as tools ({@link dev.agcore.a2a.client.A2aRemoteAgentTool}).
 * The A2A SDK's spec types and their Jackson 2 mapper stay inside this package.
 */
@NullMarked
package dev.agcore.a2a.client;

import org.jspecify.annotations.NullMarked;
