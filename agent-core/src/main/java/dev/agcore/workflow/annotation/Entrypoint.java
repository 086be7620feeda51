package dev.agcore.workflow.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a bean method as a workflow's entrypoint, registered as a
 * {@link dev.agcore.workflow.Workflow} under its name. The method may take a
 * {@code JsonNode} (the input as it is), a record or bean converted from the input JSON,
 * and a {@link dev.agcore.workflow.WorkflowContext}, in any order, and return any value
 * that serialises to JSON. It runs again from the start when the workflow is resumed, so
 * it must be deterministic apart from its {@link Task tasks}.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Entrypoint {

	/**
	 * The workflow's name; the method's name when empty.
	 * @return the name
	 */
	String name() default "";

	/**
	 * A hint naming the checkpoint store the workflow expects ({@code memory}, {@code jdbc},
	 * {@code redis}); informative only: every workflow uses the application's
	 * {@link dev.agcore.workflow.CheckpointStore}.
	 * @return the hint, or empty
	 */
	String checkpointer() default "";

}
