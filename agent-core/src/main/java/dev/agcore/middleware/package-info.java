/**
 * Middleware around the agent lifecycle: before/after hooks and onion-style wrappers of
 * model and tool calls, composed by {@link dev.agcore.middleware.MiddlewareChain}.
 */
@NullMarked
package dev.agcore.middleware;

import org.jspecify.annotations.NullMarked;
