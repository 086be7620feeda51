package dev.agcore.observation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Records a Micrometer {@code Observation} around a bean method, or around every public
 * method of a bean class. With Spring Boot, the auto-configuration does it for every bean
 * when there is an {@code ObservationRegistry}; methods that return a {@code Mono} or a
 * {@code Flux} are observed until the publisher completes.
 * <p>
 * The observation carries the low-cardinality key values {@code class}, {@code method}
 * and {@code outcome}, and the high-cardinality {@code args.<parameter>} with each
 * argument's {@code String.valueOf}, cut to 256 characters, except the parameters named in
 * {@link #skip()}. Parameter names come from the class files, so compile with
 * {@code -parameters}; without names no argument is recorded.
 * <p>
 * Secrets are never recorded: not the parameters a {@code @Tool} method declares in
 * {@code secrets} (nor its raw arguments when it declares any, nor a {@code TypedTool}'s
 * input), and, while a tool call with secret references runs on the calling thread, not
 * its secrets in any argument or error message, which are recorded with placeholders
 * instead (see {@code dev.agcore.tool.secret.ActiveSecrets}).
 * <pre>
 * &#64;Traceable(skip = "apiKey")
 * public Mono&lt;Quote&gt; quote(String symbol, String apiKey) { ... }
 * </pre>
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Traceable {

	/**
	 * The observation name. {@code agent.traceable} by default.
	 * @return the name
	 */
	String name() default "";

	/**
	 * Names of parameters whose values are never recorded, such as API keys or personal
	 * data. On a class, applies to every method; on a method, adds to the class's list.
	 * A name that is no parameter of an observed method fails at startup, so a typo
	 * cannot leak a secret.
	 * @return the parameter names
	 */
	String[] skip() default {};

}
