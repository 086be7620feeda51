/**
 * An audit sink that writes every audit event as a row of the application's database
 * (PostgreSQL, H2, MariaDB).
 */
@NullMarked
package dev.agcore.audit.jdbc;

import org.jspecify.annotations.NullMarked;
