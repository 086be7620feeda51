package dev.agcore.context;

import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The Reactor context of the caller that started the blocking code running on this
 * thread, for code that calls agents without a Reactor chain of its own: a workflow's
 * function runs on a worker thread and calls {@code agent.call(...)}, whose turn is a new
 * subscription that would otherwise know nothing of the run it belongs to. The agent's
 * check of who may use a session reads it when the turn's own context names no caller.
 *
 * @since 0.1.0
 */
public final class CallerThread {

	private static final ThreadLocal<ContextView> CALLER = new ThreadLocal<>();

	private CallerThread() {
	}

	/**
	 * Return the caller's context of the code running on this thread.
	 * @return the context, empty when no code opened one
	 */
	public static ContextView current() {
		ContextView view = CALLER.get();
		return (view != null) ? view : Context.empty();
	}

	/**
	 * Run the code that follows, on this thread, for the caller of a Reactor context,
	 * until the scope is closed.
	 * @param caller the Reactor context the code was started with
	 * @return the scope, which restores what the thread had before when closed
	 */
	public static Scope open(ContextView caller) {
		ContextView previous = CALLER.get();
		CALLER.set(caller);
		return () -> {
			if (previous != null) {
				CALLER.set(previous);
			}
			else {
				CALLER.remove();
			}
		};
	}

	/** A caller's context open on a thread. */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
