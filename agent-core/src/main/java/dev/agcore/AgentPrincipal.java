package dev.agcore;

import java.security.Principal;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The authenticated caller a turn runs for: a name and the authorities it was granted
 * (Spring Security's {@code GrantedAuthority} strings such as {@code ROLE_ADMIN} or
 * {@code SCOPE_orders}), free of any security framework. The web endpoint puts the
 * request's principal in the turn's Reactor context under {@link #CONTEXT_KEY}; tools get
 * it from {@code ToolContext.principal()} or as an injected {@link Principal} parameter,
 * and permission policies from the call's context.
 *
 * @param name the principal's name, as {@link Principal#getName()} gives it; also the
 * turn's user id
 * @param authorities the authorities granted to the principal
 * @since 0.1.0
 */
public record AgentPrincipal(String name, Set<String> authorities) implements Principal {

	/** The key of the caller's principal in a turn's Reactor context. */
	public static final Class<AgentPrincipal> CONTEXT_KEY = AgentPrincipal.class;

	private static final String ROLE_PREFIX = "ROLE_";

	public AgentPrincipal {
		Objects.requireNonNull(name, "'name' must not be null");
		if (name.isBlank()) {
			throw new IllegalArgumentException("'name' must not be blank");
		}
		authorities = Set.copyOf(authorities);
	}

	/**
	 * Create a principal.
	 * @param name the name
	 * @param authorities the authorities granted to it
	 * @return the principal
	 */
	public static AgentPrincipal of(String name, String... authorities) {
		return new AgentPrincipal(name, Set.of(authorities));
	}

	@Override
	public String getName() {
		return this.name;
	}

	/**
	 * Return whether the principal has one of these roles: a role {@code ADMIN} is granted
	 * by the authority {@code ROLE_ADMIN} (Spring Security's convention) or {@code ADMIN}
	 * itself, so an authority such as {@code SCOPE_orders} can be named as it is.
	 * @param roles the roles
	 * @return whether any is granted; {@code false} for no roles
	 */
	public boolean hasAnyRole(Collection<String> roles) {
		for (String role : roles) {
			String stripped = role.strip();
			if (this.authorities.contains(stripped) || (!stripped.startsWith(ROLE_PREFIX)
					&& this.authorities.contains(ROLE_PREFIX + stripped))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the principal of a turn's Reactor context.
	 * @param context the context
	 * @return the principal; empty when the turn runs for nobody in particular
	 */
	public static Optional<AgentPrincipal> from(ContextView context) {
		return context.getOrEmpty(CONTEXT_KEY);
	}

	/**
	 * Return a Reactor context holding a principal, for callers that run a turn
	 * themselves: {@code agent.invoke(request).contextWrite(AgentPrincipal.context(p))}.
	 * @param principal the principal
	 * @return the context
	 */
	public static Context context(AgentPrincipal principal) {
		return Context.of(CONTEXT_KEY, principal);
	}

	@Override
	public String toString() {
		// the name only: authorities are no one's business in a log line
		return "AgentPrincipal[" + this.name + "]";
	}

}
