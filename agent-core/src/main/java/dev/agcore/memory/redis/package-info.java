/**
 * The conversation store and the key-value store on Redis, through Spring Data Redis's
 * reactive API (Lettuce): shared by every instance of an application, non-blocking, each
 * change one atomic Lua script.
 */
@NullMarked
package dev.agcore.memory.redis;

import org.jspecify.annotations.NullMarked;
