/**
 * Budgets against unbounded consumption: turns per minute and tokens per day and per month,
 * per principal or per session, kept in bucket4j token buckets (in memory, or shared by
 * every instance through Redis or the database) and enforced before the model is called.
 */
@NullMarked
package dev.agcore.budget;

import org.jspecify.annotations.NullMarked;
