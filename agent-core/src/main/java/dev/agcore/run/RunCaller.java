package dev.agcore.run;

import dev.agcore.AgentPrincipal;
import dev.agcore.runtime.CallerResolver;
import reactor.util.context.Context;

/**
 * Who a background run's turns run for, decided when the run executes rather than by a
 * resolver on the worker's thread (which knows no caller): in an application that
 * authenticates its callers, the principal that submitted the run (its name, without the
 * authorities the run does not keep), so the run reaches that principal's sessions and
 * no one else's; otherwise, and for a run submitted anonymously, an anonymous caller.
 * Agent runs and workflow runs use the same rule.
 *
 * @since 0.1.0
 */
public final class RunCaller {

	private RunCaller() {
	}

	/**
	 * Return the Reactor context a run's turns run with.
	 * @param run the run
	 * @param secured whether the application authenticates its callers
	 * ({@link CallerResolver#secured()})
	 * @return the context naming the run's caller
	 */
	public static Context context(Run run, boolean secured) {
		String userId = run.request().userId();
		return (secured && userId != null) ? AgentPrincipal.context(AgentPrincipal.of(userId))
				: CallerResolver.anonymous();
	}

}
