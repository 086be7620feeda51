package dev.agcore.autoconfigure.web.problem;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

/**
 * Answers a refused session ({@link AgentAccessDeniedAdvice}) in an application's own controllers as the starter's routes
 * answer it: {@code 404} with the unknown session's message, as an RFC 9457 problem,
 * rather than a server error. For WebFlux and Spring MVC controllers alike; switched off
 * with {@code agent.web.access-denied-handler.enabled=false}, and replaced by a bean of
 * the same type.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnWebApplication
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBooleanProperty(name = "agent.web.access-denied-handler.enabled", matchIfMissing = true)
public final class AgentAccessProblemAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentAccessDeniedAdvice agentAccessDeniedAdvice() {
		return new AgentAccessDeniedAdvice();
	}

}
