package dev.agcore.middleware.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method a middleware hook. Signature:
 * {@code void name([AgentContext,] List<Message> messages)} or the same returning
 * {@code Mono<Void>}: runs once at the start of a turn; may edit the list.
 * A method that returns a {@code Mono} is the hook's reactive form: it may do I/O without
 * blocking, must not block, and is called on whatever thread the loop is on; any other
 * method runs on a thread that may block, never on an event loop.
 * A method with another signature fails at startup.
 *
 * @see dev.agcore.middleware.AgentMiddleware
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface BeforeAgent {

}
