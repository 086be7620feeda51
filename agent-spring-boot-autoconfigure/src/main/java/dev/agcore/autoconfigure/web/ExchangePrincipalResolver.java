package dev.agcore.autoconfigure.web;

import java.security.Principal;
import java.util.Set;

import dev.agcore.AgentPrincipal;
import dev.agcore.runtime.security.SpringSecurityCallerResolver;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.security.core.Authentication;
import org.springframework.util.ClassUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * The default {@link PrincipalResolver}: the exchange's principal, with the authorities
 * of a Spring Security {@link Authentication} when Spring Security is on the class path.
 * An anonymous or unauthenticated Spring Security authentication is no principal.
 */
final class ExchangePrincipalResolver implements PrincipalResolver {

	private static final boolean SPRING_SECURITY = ClassUtils.isPresent(
			"org.springframework.security.core.Authentication", ExchangePrincipalResolver.class.getClassLoader());

	@Override
	public Mono<AgentPrincipal> resolve(ServerWebExchange exchange) {
		return exchange.getPrincipal().flatMap((principal) -> Mono.justOrEmpty(of(principal)));
	}

	static @Nullable AgentPrincipal of(Principal principal) {
		if (SPRING_SECURITY) {
			return SpringSecurity.of(principal);
		}
		return named(principal, Set.of());
	}

	private static @Nullable AgentPrincipal named(Principal principal, Set<String> authorities) {
		String name = principal.getName();
		return (name != null && !name.isBlank()) ? new AgentPrincipal(name, authorities) : null;
	}

	/** Loaded only with Spring Security on the class path. */
	private static final class SpringSecurity {

		static @Nullable AgentPrincipal of(Principal principal) {
			if (!(principal instanceof Authentication authentication)) {
				return named(principal, Set.of());
			}
			// the same reading as the agent's own check of who calls
			return SpringSecurityCallerResolver.principal(authentication);
		}

	}

}
