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
	 * The value of {@link #defaultValue()} meaning there is none.
	 */
	String NO_DEFAULT = "\n\t\t\n\t\t\n\uE000\uE001\uE002\n\t\t\t\t\n";

	/**
	 * What the parameter means.
	 * @return the description
	 */
	String description() default "";

	/**
	 * Whether the model must supply the parameter. A parameter with a
	 * {@link #defaultValue()} is never required.
	 * @return whether the parameter is required
	 */
	boolean required() default true;

	/**
	 * The value used when the model leaves the parameter out, shown to the model as the
	 * schema's {@code default}. Written as the model would send it: {@code "10"},
	 * {@code "true"}, {@code "en"} (a string needs no quotes), or JSON for arrays and
	 * objects. Checked against the parameter's type when the tool is created.
	 * @return the default value
	 */
	String defaultValue() default NO_DEFAULT;

}
