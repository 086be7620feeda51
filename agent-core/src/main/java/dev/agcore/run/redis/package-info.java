/**
 * The run store on Redis, through Spring Data Redis's reactive API (Lettuce): runs as
 * hashes, the queue as a stream read by a consumer group, events as a stream per run,
 * signals over pub/sub; each change one atomic Lua script.
 */
@NullMarked
package dev.agcore.run.redis;

import org.jspecify.annotations.NullMarked;
