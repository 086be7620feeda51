package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the id of the current tool call, as the model chose it, into a {@code String} parameter of a {@link Tool} method.
 * <p>
 * The parameter is not part of the tool's schema: the model never sees or fills it.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ToolCallId {

}
