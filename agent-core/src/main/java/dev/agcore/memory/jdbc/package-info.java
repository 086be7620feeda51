/**
 * Conversation and key-value stores in a relational database (PostgreSQL, H2) through a
 * {@link javax.sql.DataSource}: {@link dev.agcore.memory.jdbc.JdbcConversationStore},
 * {@link dev.agcore.memory.jdbc.JdbcKeyValueStore} and the schema scripts
 * ({@link dev.agcore.memory.jdbc.JdbcMemorySchema}). Needs spring-jdbc.
 */
@NullMarked
package dev.agcore.memory.jdbc;

import org.jspecify.annotations.NullMarked;
