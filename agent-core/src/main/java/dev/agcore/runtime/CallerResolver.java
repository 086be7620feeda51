package dev.agcore.runtime;

import dev.agcore.AgentPrincipal;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * Says who the caller of a turn is, when the turn's Reactor context does not: an
 * explicit {@link AgentPrincipal} under {@link AgentPrincipal#CONTEXT_KEY} (trusted
 * application code, the starter's routes, background run workers) always wins, and an
 * explicit {@link #anonymous() anonymous} mark means "nobody" without asking the
 * resolver. The agent asks its resolver once per turn and per read of a session, when
 * they are subscribed to, and then decides with {@link SessionAccess}.
 * <p>
 * The starter defines one reading Spring Security's contexts when Spring Security is on
 * the class path ({@code dev.agcore.runtime.security.SpringSecurityCallerResolver}), so
 * an application's own controller that calls an {@link Agent} is checked with no code of
 * its own.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CallerResolver {

	/**
	 * Knows no caller: every turn without a principal in its context is anonymous, and a
	 * {@code userId} it names is kept (an application without authentication, where a
	 * user id is only a label).
	 */
	CallerResolver NONE = new CallerResolver() {

		@Override
		public Mono<AgentPrincipal> resolve(ContextView context) {
			return Mono.empty();
		}

		@Override
		public boolean secured() {
			return false;
		}

		@Override
		public String toString() {
			return "CallerResolver.NONE";
		}

	};

	/** The key of the mark of an anonymous caller in a turn's Reactor context. */
	String ANONYMOUS_KEY = CallerResolver.class.getName() + ".anonymous";

	/**
	 * Return the caller of a turn that is being subscribed to. Called on the subscribing
	 * thread: a resolver reading thread locals must read them before it returns.
	 * @param context the Reactor context the turn was subscribed with
	 * @return the caller; empty for an anonymous one
	 */
	Mono<AgentPrincipal> resolve(ContextView context);

	/**
	 * Return whether the application authenticates its callers. If it does, an anonymous
	 * caller cannot speak for a user: the {@code userId} its turn names is ignored (logged
	 * once at WARN), so it is charged and listed by session.
	 * @return {@code true} unless this resolver knows no caller at all
	 */
	default boolean secured() {
		return true;
	}

	/**
	 * Return a Reactor context that marks the caller as anonymous, for code that decided
	 * so itself (a route whose caller did not authenticate): the resolver is not asked.
	 * @return the context
	 */
	static Context anonymous() {
		return Context.of(ANONYMOUS_KEY, Boolean.TRUE);
	}

}
