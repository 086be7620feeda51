/**
 * A {@link dev.agcore.workflow.CheckpointStore} in a relational database (PostgreSQL, H2,
 * MariaDB), shared by every instance of an application.
 */
@NullMarked
package dev.agcore.workflow.jdbc;

import org.jspecify.annotations.NullMarked;
