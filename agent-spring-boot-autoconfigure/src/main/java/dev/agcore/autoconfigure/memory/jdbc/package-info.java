/**
 * Auto-configuration of the JDBC conversation and key-value stores.
 */
@NullMarked
package dev.agcore.autoconfigure.memory.jdbc;

import org.jspecify.annotations.NullMarked;
