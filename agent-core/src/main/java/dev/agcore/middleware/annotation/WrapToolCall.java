package dev.agcore.middleware.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method a middleware hook. Signature:
 * {@code Mono<ToolResultMessage> name([AgentContext,] ToolCall call, ToolCallHandler next)}: wraps each tool call.
 * A method with another signature fails at startup.
 *
 * @see dev.agcore.middleware.AgentMiddleware
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WrapToolCall {

}
