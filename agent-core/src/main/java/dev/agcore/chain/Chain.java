package dev.agcore.chain;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method of a Spring bean as a named chain, the seeds' {@code #[chain]}:
 * the application's {@link ChainRegistry} holds it as a {@link Runnable}. The method
 * takes one argument, the input, and returns the output:
 * <ul>
 * <li>a value: the method may block, and runs on a thread that may (Reactor's
 * {@code boundedElastic}); {@code null} fails the run;</li>
 * <li>a {@code Mono}: the method must not block, and runs on the caller's thread;</li>
 * <li>a {@code Flux<String>}: text in pieces, which {@link Runnable#stream} emits and
 * {@link Runnable#invoke} joins; the method must not block.</li>
 * </ul>
 * An input that is not of the parameter's type (a map from JSON, say) is converted to it
 * with the application's JSON mapper. A method of any other shape, or a name taken twice,
 * fails startup naming the bean and the method.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Chain {

	/**
	 * The chain's name, unique in the application, used to look it up and in metrics.
	 * Defaults to the method's name.
	 * @return the name
	 */
	String value() default "";

}
