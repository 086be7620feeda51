package dev.agcore.context;

import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Captures the caller's context when a turn starts, on the thread that subscribes to the
 * turn and from the turn's Reactor context, so that its tools, hooks and sub-agents see
 * it on whatever thread they run. See {@link MicrometerContextCapture} for the one
 * backed by Micrometer's context-propagation library.
 */
@FunctionalInterface
public interface ContextCapture {

	/** Captures nothing. */
	ContextCapture NONE = (view) -> Mono.just(PropagatedContext.NONE);

	/**
	 * Capture the context of a turn that starts now. Called on the thread that subscribes
	 * to the turn; what is on that thread must be read before this method returns.
	 * @param view the Reactor context the turn was subscribed with
	 * @return the captured context; never empty
	 */
	Mono<PropagatedContext> capture(ContextView view);

	/**
	 * Return a capture that runs these in order; the later ones' values win.
	 * @param captures the captures
	 * @return the combined capture
	 */
	static ContextCapture of(List<? extends ContextCapture> captures) {
		List<ContextCapture> all = captures.stream().filter((capture) -> capture != NONE)
			.map(ContextCapture.class::cast)
			.toList();
		if (all.isEmpty()) {
			return NONE;
		}
		if (all.size() == 1) {
			return all.get(0);
		}
		return (view) -> {
			// each reads its thread locals now, on the subscribing thread
			List<Mono<PropagatedContext>> captured = all.stream().map((capture) -> capture.capture(view)).toList();
			return Mono.zip(captured, (contexts) -> {
				PropagatedContext combined = PropagatedContext.NONE;
				for (Object context : contexts) {
					combined = combined.and((PropagatedContext) context);
				}
				return combined;
			});
		};
	}

	/**
	 * Return the default capture, by what is on the class path: the
	 * {@link MicrometerContextCapture} of the global {@code ContextRegistry} with
	 * Micrometer's context-propagation library, then the
	 * {@code ReactiveSecurityContextCapture} with Spring Security; {@link #NONE} without
	 * either.
	 * @return the capture
	 */
	static ContextCapture detect() {
		List<ContextCapture> captures = new ArrayList<>(2);
		if (isPresent("io.micrometer.context.ContextSnapshotFactory")) {
			captures.add(MicrometerContextCapture.global());
		}
		if (isPresent("org.springframework.security.core.context.ReactiveSecurityContextHolder")) {
			captures.add(reactiveSecurity());
		}
		return of(captures);
	}

	private static ContextCapture reactiveSecurity() {
		// by name: this package must not depend on its Spring Security edge
		try {
			return (ContextCapture) Class.forName("dev.agcore.context.security.ReactiveSecurityContextCapture")
				.getDeclaredConstructor()
				.newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot create the reactive security context capture", ex);
		}
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, ContextCapture.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
