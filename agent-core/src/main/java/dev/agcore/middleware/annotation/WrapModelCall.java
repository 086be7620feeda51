package dev.agcore.middleware.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method a middleware hook. Signature:
 * {@code Mono<ChatResponse> name([AgentContext,] ChatRequest request, ModelCall next)}: wraps each model call.
 * A method with another signature fails at startup.
 *
 * @see dev.agcore.middleware.AgentMiddleware
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WrapModelCall {

}
