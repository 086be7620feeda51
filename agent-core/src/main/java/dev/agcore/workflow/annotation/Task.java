package dev.agcore.workflow.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a bean method as a workflow task: called inside a running workflow, its result
 * is checkpointed under the call id {@code <name>#<n>} and, when the workflow runs again
 * after an interrupt or a crash, returned from the checkpoint without calling the method.
 * Called outside a workflow it is a plain call. As with {@code @Transactional}, only calls
 * through the bean's proxy count: a call from another method of the same bean
 * ({@code this.task()}) is not checkpointed.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Task {

	/**
	 * The task's name; the method's name when empty.
	 * @return the name
	 */
	String name() default "";

}
