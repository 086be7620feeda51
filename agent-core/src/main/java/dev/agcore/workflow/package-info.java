/**
 * Durable workflows in the style of LangGraph's functional API: a {@link dev.agcore.workflow.Workflow}
 * calls {@link dev.agcore.workflow.WorkflowContext#task tasks} whose results are checkpointed
 * in a {@link dev.agcore.workflow.CheckpointStore} by a deterministic call id, so that a
 * workflow resumed after an {@link dev.agcore.workflow.WorkflowContext#interrupt interrupt}
 * or a crash runs again from the start without running its finished tasks again.
 */
@NullMarked
package dev.agcore.workflow;

import org.jspecify.annotations.NullMarked;
