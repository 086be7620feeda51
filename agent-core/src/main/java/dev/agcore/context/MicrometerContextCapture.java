package dev.agcore.context;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Captures what the {@code ThreadLocalAccessor}s of a {@link ContextRegistry} hold, with
 * Micrometer's context-propagation library: Spring Security's
 * {@code SecurityContextHolder}, the current Micrometer {@code Observation}, and any
 * accessor of your own. Values in the turn's Reactor context under an accessor's key win
 * over the subscribing thread's. With no accessor registered, it captures nothing and
 * costs nothing.
 */
public final class MicrometerContextCapture implements ContextCapture {

	private final ContextRegistry registry;

	private final ContextSnapshotFactory snapshots;

	private final boolean readsReactorContext;

	/**
	 * Create a capture of the accessors of a registry.
	 * @param registry the registry, usually {@link ContextRegistry#getInstance()}
	 */
	public MicrometerContextCapture(ContextRegistry registry) {
		this.registry = registry;
		this.snapshots = ContextSnapshotFactory.builder().contextRegistry(registry).build();
		// reactor-core registers its accessor in the global registry; a registry of your own may lack it
		this.readsReactorContext = registry.getContextAccessors()
			.stream()
			.anyMatch((accessor) -> accessor.readableType().isAssignableFrom(ContextView.class));
	}

	/**
	 * Return a capture of the accessors of the global registry, which holds those the
	 * libraries on the class path register with {@code ServiceLoader}.
	 * @return the capture
	 */
	public static MicrometerContextCapture global() {
		return new MicrometerContextCapture(ContextRegistry.getInstance());
	}

	@Override
	public Mono<PropagatedContext> capture(ContextView view) {
		if (this.registry.getThreadLocalAccessors().isEmpty()) {
			return Mono.just(PropagatedContext.NONE);
		}
		ContextSnapshot snapshot = this.readsReactorContext ? this.snapshots.captureAll(view)
				: this.snapshots.captureAll();
		return Mono.just(() -> {
			ContextSnapshot.Scope scope = snapshot.setThreadLocals();
			return scope::close;
		});
	}

	@Override
	public String toString() {
		return "MicrometerContextCapture " + this.registry.getThreadLocalAccessors().stream()
			.map((accessor) -> accessor.key().toString())
			.toList();
	}

}
