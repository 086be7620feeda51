package dev.agcore.docs.security;

// tag::resolver[]
import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.web.PrincipalResolver;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Who the caller is without Spring Security: the user a gateway passes in a header.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayPrincipal {

	@Bean
	PrincipalResolver principalResolver() {
		return (exchange) -> Mono.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-User"))
			.map((user) -> AgentPrincipal.of(user, "ROLE_USER"));
	}

}
// end::resolver[]
