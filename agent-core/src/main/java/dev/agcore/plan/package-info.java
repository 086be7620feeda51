/**
 * Plan-and-execute: a {@link dev.agcore.plan.Plan} of {@link dev.agcore.plan.Step}s asked
 * of a model and parsed by a {@link dev.agcore.plan.PlanParser}, then run step by step
 * (or, where steps declare their dependencies, several at a time) as turns of an agent by
 * a {@link dev.agcore.plan.TaskAgent}.
 */
@NullMarked
package dev.agcore.plan;

import org.jspecify.annotations.NullMarked;
