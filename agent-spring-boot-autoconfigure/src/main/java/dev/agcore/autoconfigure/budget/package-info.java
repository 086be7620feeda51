/**
 * Auto-configuration of budgets ({@code agent.budget.*} and
 * {@code agent.agents.<name>.budget.*}): token buckets in memory, or in the Redis or
 * database of the memory stores, shared by every instance.
 */
@NullMarked
package dev.agcore.autoconfigure.budget;

import org.jspecify.annotations.NullMarked;
