package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the caller's state (the map passed with the agent request) into a parameter of
 * a {@link Tool} method: one entry with {@code @State("key")}, converted to the
 * parameter's type, or the whole read-only map with {@code @State} on a
 * {@code Map<String, Object>} parameter.
 * <p>
 * The parameter is not part of the tool's schema: the model never sees or fills it. A
 * missing entry injects {@code null}, or {@code Optional.empty()} for an
 * {@code Optional} parameter.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface State {

	/**
	 * The key of the entry to inject; empty for the whole map.
	 * @return the key
	 */
	String value() default "";

}
