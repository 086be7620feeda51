package dev.agcore.runtime.security;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.agcore.AgentPrincipal;
import dev.agcore.runtime.CallerResolver;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller of a turn as Spring Security knows it, with no code from the application:
 * the authentication of the Reactor context ({@link ReactiveSecurityContextHolder}, which
 * WebFlux's filter chain fills for a controller returning a {@code Mono} or {@code Flux}),
 * else the {@link SecurityContextHolder}'s on the thread that subscribes to the turn (a
 * servlet application: {@code Agent.call} from an MVC controller subscribes on the
 * request's thread). An anonymous or unauthenticated authentication is no caller.
 *
 * @since 0.1.0
 */
public final class SpringSecurityCallerResolver implements CallerResolver {

	@Override
	public Mono<AgentPrincipal> resolve(ContextView context) {
		// now, on the subscribing thread: the thread's context is gone once the turn hops
		AgentPrincipal local = principal(SecurityContextHolder.getContext().getAuthentication());
		if (!context.hasKey(SecurityContext.class)) {
			return Mono.justOrEmpty(local);
		}
		return ReactiveSecurityContextHolder.getContext()
			.mapNotNull((security) -> principal(security.getAuthentication()))
			.switchIfEmpty(Mono.justOrEmpty(local));
	}

	/**
	 * Return the principal of an authentication.
	 * @param authentication the authentication
	 * @return its name and authorities; {@code null} for none, an anonymous one or one not
	 * authenticated
	 */
	public static @Nullable AgentPrincipal principal(@Nullable Authentication authentication) {
		if (authentication == null || authentication instanceof AnonymousAuthenticationToken
				|| !authentication.isAuthenticated()) {
			return null;
		}
		String name = authentication.getName();
		if (name == null || name.isBlank()) {
			return null;
		}
		Set<String> authorities = new LinkedHashSet<>();
		for (GrantedAuthority authority : authentication.getAuthorities()) {
			if (authority.getAuthority() != null) {
				authorities.add(authority.getAuthority());
			}
		}
		return new AgentPrincipal(name, authorities);
	}

	@Override
	public String toString() {
		return "SpringSecurityCallerResolver";
	}

}
