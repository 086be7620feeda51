package dev.agcore.context;

import java.util.Objects;

import reactor.util.context.ContextView;

/**
 * A caller's thread-bound context captured when a turn starts, to be set on the threads
 * where the turn's user code runs (tools, hooks, sub-agents) and taken off again after.
 * The turn keeps it in its Reactor context under {@link #CONTEXT_KEY}.
 * <pre class="code">
 * try (PropagatedContext.Scope scope = PropagatedContext.from(contextView).open()) {
 *     runUserCode();
 * }
 * </pre>
 */
@FunctionalInterface
public interface PropagatedContext {

	/** The Reactor context key a turn keeps its propagated context under. */
	String CONTEXT_KEY = PropagatedContext.class.getName();

	/** Nothing to propagate: opening it changes nothing. */
	PropagatedContext NONE = () -> Scope.NONE;

	/**
	 * Set the captured values on the current thread.
	 * @return a scope whose {@link Scope#close()} restores what the thread held before
	 */
	Scope open();

	/**
	 * Return a context that opens this one, then {@code next}, and closes them in reverse.
	 * @param next the context opened second, whose values win
	 * @return the combined context
	 */
	default PropagatedContext and(PropagatedContext next) {
		Objects.requireNonNull(next, "'next' must not be null");
		if (this == NONE) {
			return next;
		}
		if (next == NONE) {
			return this;
		}
		return () -> {
			Scope first = open();
			Scope second;
			try {
				second = next.open();
			}
			catch (RuntimeException | Error ex) {
				first.close();
				throw ex;
			}
			return () -> {
				try {
					second.close();
				}
				finally {
					first.close();
				}
			};
		};
	}

	/**
	 * Return the context of the turn a Reactor context belongs to.
	 * @param view the Reactor context
	 * @return the turn's context, {@link #NONE} outside a turn
	 */
	static PropagatedContext from(ContextView view) {
		return view.getOrDefault(CONTEXT_KEY, NONE);
	}

	/**
	 * The time a propagated context is set on a thread.
	 */
	@FunctionalInterface
	interface Scope extends AutoCloseable {

		/** A scope that restores nothing. */
		Scope NONE = () -> {
		};

		/** Restore what the thread held before the context was opened. */
		@Override
		void close();

	}

}
