package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of a {@link Tool} method (or a record component of a tool's
 * argument type) to the model.
 */
@Target({ ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ToolParam {

	/**
	 * What the parameter means.
	 * @return the description
	 */
	String description() default "";

	/**
	 * Whether the model must supply the parameter.
	 * @return whether the parameter is required
	 */
	boolean required() default true;

}
