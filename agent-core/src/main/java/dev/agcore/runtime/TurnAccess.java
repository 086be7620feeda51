package dev.agcore.runtime;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import dev.agcore.AgentPrincipal;
import dev.agcore.audit.AuditEvent;
import dev.agcore.audit.Auditor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The one gate of an agent: every turn and every read of a session goes through it. It
 * finds the caller (an explicit {@link AgentPrincipal} in the Reactor context, an
 * explicit anonymous mark, else the {@link CallerResolver}, asked on the subscribing
 * thread), settles the turn's user id, asks {@link SessionAccess}, audits a refusal, and
 * runs the turn with the caller's principal in its context for its tools. It costs one
 * owner read or claim per turn, on the thread that subscribed: no {@code block()}, no
 * thread hop.
 */
final class TurnAccess {

	private static final Log logger = LogFactory.getLog(TurnAccess.class);

	/** Once per application: the warning is about the code that calls, not each call. */
	private static final AtomicBoolean warnedAnonymousUserId = new AtomicBoolean();

	private final String agentName;

	private final CallerResolver callers;

	private final SessionAccess sessions;

	private final Auditor auditor;

	TurnAccess(String agentName, CallerResolver callers, SessionAccess sessions, Auditor auditor) {
		this.agentName = agentName;
		this.callers = Objects.requireNonNull(callers, "'callers' must not be null");
		this.sessions = sessions;
		this.auditor = auditor;
	}

	/**
	 * Run a turn of a session if its caller may: a principal claims the session.
	 * @param sessionId the session
	 * @param userId the user id the request names
	 * @param turn the turn, given the user id it runs for: the principal's name, the
	 * request's for an anonymous caller of an application without authentication, else
	 * {@code null}
	 * @return the turn, or an {@link AgentAccessDeniedException}
	 */
	<T> Mono<T> turn(String sessionId, @Nullable String userId, Function<@Nullable String, Mono<T>> turn) {
		return gated(sessionId, true, (caller) -> turn.apply(userId(caller, userId)));
	}

	/**
	 * Resume a paused turn of a session if its caller may read the session: its owner, or
	 * anyone for a session nobody owns, as {@link #read}.
	 * @param sessionId the session
	 * @param userId the user id the request names
	 * @param turn the resumed turn, given the user id it runs for, as {@link #turn}
	 * @return the turn, or an {@link AgentAccessDeniedException}
	 */
	<T> Mono<T> resume(String sessionId, @Nullable String userId, Function<@Nullable String, Mono<T>> turn) {
		return gated(sessionId, false, (caller) -> turn.apply(userId(caller, userId)));
	}

	/**
	 * Read a session if the caller may: a principal only its own, anyone else only one
	 * nobody owns.
	 * @param sessionId the session
	 * @param read the read
	 * @return the read, or an {@link AgentAccessDeniedException}
	 */
	<T> Mono<T> read(String sessionId, Mono<T> read) {
		return gated(sessionId, false, (caller) -> read);
	}

	private <T> Mono<T> gated(String sessionId, boolean claim,
			Function<@Nullable AgentPrincipal, Mono<T>> then) {
		return Mono.deferContextual((view) -> {
			AgentPrincipal explicit = view.getOrDefault(AgentPrincipal.CONTEXT_KEY, null);
			if (explicit != null || view.hasKey(CallerResolver.ANONYMOUS_KEY)) {
				return checked(sessionId, claim, explicit, then);
			}
			return resolve(view).flatMap((caller) -> {
				AgentPrincipal principal = caller.orElse(null);
				Mono<T> checked = checked(sessionId, claim, principal, then);
				// the tools of the turn see the caller as they see one a route names
				return (principal != null) ? checked.contextWrite(AgentPrincipal.context(principal))
						: checked.contextWrite(CallerResolver.anonymous());
			});
		});
	}

	private Mono<Optional<AgentPrincipal>> resolve(ContextView view) {
		return this.callers.resolve(view).map(Optional::of).defaultIfEmpty(Optional.empty());
	}

	private <T> Mono<T> checked(String sessionId, boolean claim, @Nullable AgentPrincipal caller,
			Function<@Nullable AgentPrincipal, Mono<T>> then) {
		Mono<Void> check = claim ? this.sessions.claim(sessionId, caller) : this.sessions.read(sessionId, caller);
		return check.onErrorMap(AgentAccessDeniedException.class, (ex) -> denied(ex, sessionId, caller, claim))
			.then(Mono.defer(() -> then.apply(caller)));
	}

	private AgentAccessDeniedException denied(AgentAccessDeniedException ex, String sessionId,
			@Nullable AgentPrincipal caller, boolean claim) {
		this.auditor.publish(AuditEvent.Kind.ACCESS_DENIED, this.agentName, sessionId,
				(caller != null) ? caller.name() : null, null, null, "", UnaryOperator.identity(), "denied",
				claim ? "turn" : "read");
		return ex;
	}

	/**
	 * The user id a turn runs for. A principal's name is its user id; a request that names
	 * another user is refused, since a principal cannot act for someone else. An anonymous
	 * caller speaks for nobody when the application authenticates its callers.
	 */
	private @Nullable String userId(@Nullable AgentPrincipal caller, @Nullable String requested) {
		if (caller != null) {
			if (requested != null && !requested.equals(caller.name())) {
				throw new AgentAccessDeniedException("A turn of an authenticated caller cannot name another user "
						+ "as its userId; leave it unset, the caller's name is the turn's user id");
			}
			return caller.name();
		}
		if (requested != null && this.callers.secured()) {
			if (warnedAnonymousUserId.compareAndSet(false, true)) {
				logger.warn("Agent '" + this.agentName + "': a turn of an anonymous caller named a userId, which is "
						+ "ignored: with authentication, only an authenticated principal is a user (its budget and "
						+ "session list are the session's). This is logged once.");
			}
			return null;
		}
		return requested;
	}

}
