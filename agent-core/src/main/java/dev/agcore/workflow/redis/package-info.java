/**
 * A {@link dev.agcore.workflow.CheckpointStore} in Redis, shared by every instance of an
 * application.
 */
@NullMarked
package dev.agcore.workflow.redis;

import org.jspecify.annotations.NullMarked;
