/**
 * The {@link dev.agcore.plan.task.TaskAgent}: an agent that plans a goal with a model,
 * then carries the plan out step by step as turns of another agent.
 */
@NullMarked
package dev.agcore.plan.task;

import org.jspecify.annotations.NullMarked;
