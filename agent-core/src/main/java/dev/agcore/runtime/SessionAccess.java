package dev.agcore.runtime;

import java.util.Objects;

import dev.agcore.AgentPrincipal;
import dev.agcore.memory.SessionOwners;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Who may use which session, decided in one place for every way into an agent. A
 * principal claims a session nobody owns (the first claim wins, atomically in the store
 * of {@link SessionOwners}) and reaches only its own; an anonymous caller reaches only
 * sessions nobody owns. Every refusal is an {@link AgentAccessDeniedException} worded as
 * an unknown session's, so a caller cannot tell whether someone else's session exists.
 * <p>
 * The agent uses it on every turn ({@link #claim}) and every read of a session
 * ({@link #read}); the starter's session and run routes use the same rules for what they
 * do without an agent (deleting a session, reading a run).
 *
 * @since 0.1.0
 */
public final class SessionAccess {

	private final SessionOwners owners;

	private SessionAccess(SessionOwners owners) {
		this.owners = Objects.requireNonNull(owners, "'owners' must not be null");
	}

	/**
	 * Create the rules over a store of owners.
	 * @param owners the sessions' owners
	 * @return the rules
	 */
	public static SessionAccess of(SessionOwners owners) {
		return new SessionAccess(owners);
	}

	/**
	 * Let a caller start or continue a session: one owner read or claim.
	 * @param sessionId the session
	 * @param caller the caller, {@code null} for an anonymous one
	 * @return completes if the caller may, else fails with an
	 * {@link AgentAccessDeniedException}
	 */
	public Mono<Void> claim(String sessionId, @Nullable AgentPrincipal caller) {
		if (caller == null) {
			return read(sessionId, null);
		}
		String name = caller.name();
		return this.owners.claim(sessionId, name)
			.flatMap((owner) -> owner.equals(name) ? Mono.<Void>empty()
					: Mono.error(AgentAccessDeniedException.session(sessionId)));
	}

	/**
	 * Let a caller read, resume or delete a session: a principal only its own, an
	 * anonymous caller only one nobody owns. A principal's read of a session nobody owns
	 * is refused too, as it is for a session that does not exist: there is nothing of its
	 * own to read.
	 * @param sessionId the session
	 * @param caller the caller, {@code null} for an anonymous one
	 * @return completes if the caller may, else fails with an
	 * {@link AgentAccessDeniedException}
	 */
	public Mono<Void> read(String sessionId, @Nullable AgentPrincipal caller) {
		String name = (caller != null) ? caller.name() : null;
		return this.owners.owner(sessionId)
			.map((owner) -> owner.equals(name))
			.defaultIfEmpty(name == null)
			.flatMap((allowed) -> allowed ? Mono.<Void>empty()
					: Mono.error(AgentAccessDeniedException.session(sessionId)));
	}

}
