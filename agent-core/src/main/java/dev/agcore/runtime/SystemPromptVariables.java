package dev.agcore.runtime;

import java.util.Map;

import dev.agcore.middleware.AgentContext;
import reactor.core.publisher.Mono;

/**
 * Values a system prompt template renders with, computed for every model call: the
 * customer's name from a database, the open orders, a feature flag. Asked before each
 * model call of an agent whose prompt is a {@link SystemPromptTemplate}; what it gives is
 * added to the template's variables under the names it chooses. With Spring Boot every
 * bean of this type is used by every agent with a {@code system-prompt-template}.
 * <p>
 * Never blocks: a source that needs I/O returns a {@link Mono} of it (or moves the work
 * to a scheduler whose threads may block).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SystemPromptVariables {

	/**
	 * Compute variables for one model call.
	 * @param context the turn: agent, session, user, request state, session memory
	 * @return the variables, by name; empty for none
	 */
	Mono<Map<String, Object>> variables(AgentContext context);

}
