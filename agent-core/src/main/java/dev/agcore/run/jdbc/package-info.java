/**
 * Background runs in a relational database: {@link dev.agcore.run.jdbc.JdbcRunStore} on
 * PostgreSQL ({@code FOR UPDATE SKIP LOCKED}, {@code LISTEN/NOTIFY}), also usable on H2
 * and MariaDB for development, and its schema scripts
 * ({@link dev.agcore.run.jdbc.JdbcRunStore#SCHEMA}). Needs spring-jdbc, and the PostgreSQL
 * driver for notifications.
 */
@NullMarked
package dev.agcore.run.jdbc;

import org.jspecify.annotations.NullMarked;
