package dev.agcore;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the one parameter of a {@link Tool} method that receives the model's arguments
 * untouched, as a {@code JsonNode} or {@code ObjectNode}: no binding, no defaults, no
 * validation. The tool's schema is a free-form object unless {@link #schema()} gives one.
 * Other parameters of the method can only be injected values.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RawArguments {

	/**
	 * The JSON schema of the arguments object, sent to the model as is. Empty for a
	 * free-form object.
	 * @return the schema as JSON text
	 */
	String schema() default "";

}
