package dev.agcore.a2a.server;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Who sends a request to an {@link A2aServer}, and which sessions it may use. A task
 * belongs to the caller that created it: another caller gets {@code TaskNotFound} for
 * it, exactly as for a task that does not exist.
 *
 * @since 0.1.0
 */
public interface A2aCaller {

	/**
	 * The caller's principal name, which owns the tasks it creates and is the user id of
	 * its turns.
	 * @return the name, {@code null} for an anonymous caller
	 */
	@Nullable String name();

	/**
	 * Whether the caller may start or continue a turn in a session (a task's context):
	 * typically it owns the session, or claims it when nobody does.
	 * @param sessionId the session id, the task's context id
	 * @return whether it may
	 */
	Mono<Boolean> mayUse(String sessionId);

	/**
	 * The Reactor context the caller's turns run with (its principal, for tools).
	 * @return the context
	 */
	Context context();

	/**
	 * An anonymous caller that may use every session.
	 * @return the caller
	 */
	static A2aCaller anonymous() {
		return new A2aCaller() {

			@Override
			public @Nullable String name() {
				return null;
			}

			@Override
			public Mono<Boolean> mayUse(String sessionId) {
				return Mono.just(true);
			}

			@Override
			public Context context() {
				return Context.empty();
			}

		};
	}

}
