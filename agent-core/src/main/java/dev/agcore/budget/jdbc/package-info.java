/**
 * Budgets shared by every instance through the application's database (PostgreSQL, H2,
 * MariaDB): bucket4j buckets in one table, locked with {@code SELECT ... FOR UPDATE}.
 */
@NullMarked
package dev.agcore.budget.jdbc;

import org.jspecify.annotations.NullMarked;
