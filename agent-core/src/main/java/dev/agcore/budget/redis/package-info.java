/**
 * Budgets shared by every instance through Redis, with bucket4j's Lettuce backend.
 */
@NullMarked
package dev.agcore.budget.redis;

import org.jspecify.annotations.NullMarked;
