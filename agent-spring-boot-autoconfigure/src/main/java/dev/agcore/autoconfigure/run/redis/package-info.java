/**
 * Auto-configuration of the Redis run store ({@code agent.memory.store=redis}).
 */
@NullMarked
package dev.agcore.autoconfigure.run.redis;

import org.jspecify.annotations.NullMarked;
