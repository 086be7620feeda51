/**
 * Auto-configuration of the Redis conversation and key-value stores
 * ({@code agent.memory.store=redis}).
 */
@NullMarked
package dev.agcore.autoconfigure.memory.redis;

import org.jspecify.annotations.NullMarked;
