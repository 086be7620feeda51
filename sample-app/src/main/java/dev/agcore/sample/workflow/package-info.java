/**
 * A durable workflow of the sample app: a return request whose tasks are checkpointed and
 * which waits for a person's approval, run with {@code POST /workflows/return-request/runs}.
 */
@NullMarked
package dev.agcore.sample.workflow;

import org.jspecify.annotations.NullMarked;
