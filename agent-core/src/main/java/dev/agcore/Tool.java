package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a bean as a tool the model may call. The JSON schema the model
 * sees is generated from the method's parameter types, and the model's arguments are
 * bound to those same types, so the two can never drift apart.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Tool {

	/**
	 * Name of the tool as the model sees it. Defaults to the method name.
	 * @return the tool name
	 */
	String name() default "";

	/**
	 * What the tool does and when to use it; the model reads this to decide.
	 * @return the description
	 */
	String description() default "";

}
