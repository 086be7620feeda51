/**
 * Auto-configuration of the JDBC run store, on the database of the JDBC memory stores.
 */
@NullMarked
package dev.agcore.autoconfigure.run.jdbc;

import org.jspecify.annotations.NullMarked;
