/**
 * Auto-configuration of durable workflows: {@code @Entrypoint} methods and {@code Workflow}
 * beans registered, {@code @Task} methods checkpointed, and the checkpoint store chosen
 * by {@code agent.memory.store}.
 */
@NullMarked
package dev.agcore.autoconfigure.workflow;

import org.jspecify.annotations.NullMarked;
