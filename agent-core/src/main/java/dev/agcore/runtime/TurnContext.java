package dev.agcore.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;

import dev.agcore.context.ContextCapture;
import dev.agcore.context.MdcKeys;
import dev.agcore.context.PropagatedContext;
import dev.agcore.support.LogSafe;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import reactor.core.Fuseable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.ContextView;

/**
 * Carries the caller's context through a turn: what the {@link ContextCapture} takes
 * (security context, observation), and the MDC — the caller's entries plus
 * those of {@link MdcKeys}. The turn keeps it in its Reactor context, where tools, hooks and
 * sub-agents find it ({@link PropagatedContext#from}), and opens it while the turn is
 * subscribed.
 */
final class TurnContext {

	private TurnContext() {
	}

	/**
	 * Run a turn with the caller's context: captured now, on the subscribing thread and
	 * from the Reactor context, and opened while the turn is subscribed. The turn is
	 * assembled with the scope open too, and must put the context in its Reactor context
	 * under {@link PropagatedContext#CONTEXT_KEY} (in its one {@code contextWrite}, with
	 * whatever else it puts there).
	 * @param turn assembles the turn from the caller's Reactor context and the captured context
	 */
	static <T> Mono<T> propagate(ContextCapture capture, String agent, String sessionId,
			BiFunction<ContextView, PropagatedContext, Mono<T>> turn) {
		return Mono.deferContextual((view) -> {
			PropagatedContext mdc = mdc(agent, sessionId, view);
			Mono<PropagatedContext> captured = capture.capture(view);
			PropagatedContext now = capturedNow(captured);
			if (now != null) {
				// the usual captures answer at once: no operator to wait for them
				return within(view, now.and(mdc), turn);
			}
			return captured.flatMap((context) -> within(view, context.and(mdc), turn));
		});
	}

	private static <T> Mono<T> within(ContextView view, PropagatedContext context,
			BiFunction<ContextView, PropagatedContext, Mono<T>> turn) {
		return Mono.<T>fromDirect((subscriber) -> {
			// what the turn does while it is subscribed (a store that answers at once,
			// hooks on this thread) sees the context too
			try (PropagatedContext.Scope scope = context.open()) {
				Mono<T> assembled;
				try {
					assembled = turn.apply(view, context);
				}
				catch (RuntimeException ex) {
					Operators.error(subscriber, ex);
					return;
				}
				assembled.subscribe(subscriber);
			}
		});
	}

	/** The value of a capture that holds it already ({@code Mono.just}), else null. */
	private static @Nullable PropagatedContext capturedNow(Mono<PropagatedContext> captured) {
		if (captured instanceof Fuseable.ScalarCallable<?> scalar) {
			try {
				return (PropagatedContext) scalar.call();
			}
			catch (Exception ex) {
				return null;
			}
		}
		return null;
	}

	private static PropagatedContext mdc(String agentName, String session, ContextView view) {
		// a log pattern may print these entries: caller text in them is escaped as in any log line
		String agent = LogSafe.text(agentName);
		String sessionId = LogSafe.text(session);
		Map<String, String> caller = MDC.getCopyOfContextMap();
		Map<String, String> added = view.getOrDefault(MdcKeys.CONTEXT_KEY, null);
		if ((caller == null || caller.isEmpty()) && added == null) {
			// the common case, without a map to copy
			return new Mdc(Map.of(MdcKeys.AGENT, agent, MdcKeys.SESSION, sessionId, MdcKeys.TURN, turnId()));
		}
		Map<String, String> values = (caller != null) ? new HashMap<>(caller) : new HashMap<>(8);
		if (added != null) {
			values.putAll(added);
		}
		values.put(MdcKeys.AGENT, agent);
		values.put(MdcKeys.SESSION, sessionId);
		values.put(MdcKeys.TURN, turnId());
		return new Mdc(Map.copyOf(values));
	}

	/** A short random id: unique enough to find one turn's lines in a log. */
	private static String turnId() {
		// not UUID.randomUUID(): no SecureRandom on every turn
		return Long.toHexString(ThreadLocalRandom.current().nextLong());
	}

	/** Sets the turn's MDC on a thread, and puts back what the thread had after. */
	private record Mdc(Map<String, String> values) implements PropagatedContext {

		@Override
		public Scope open() {
			@Nullable Map<String, String> previous = MDC.getCopyOfContextMap();
			MDC.setContextMap(this.values);
			return () -> {
				if (previous == null || previous.isEmpty()) {
					MDC.clear();
				}
				else {
					MDC.setContextMap(previous);
				}
			};
		}

	}

}
