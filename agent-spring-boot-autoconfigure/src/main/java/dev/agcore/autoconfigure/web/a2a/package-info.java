/**
 * Auto-configuration of an A2A (Agent2Agent protocol) server: each exposed agent's Agent
 * Card and JSON-RPC endpoint, so agents built on other frameworks, and the official A2A
 * SDKs, can talk to agcore agents.
 */
@NullMarked
package dev.agcore.autoconfigure.web.a2a;

import org.jspecify.annotations.NullMarked;
