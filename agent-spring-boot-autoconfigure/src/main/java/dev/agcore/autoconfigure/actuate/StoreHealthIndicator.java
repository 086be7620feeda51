package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * A {@link org.springframework.boot.health.contributor.ReactiveHealthIndicator} of a
 * store of the agents: up when a read of a key nobody writes answers (found or not)
 * within the timeout, down when it fails or times out. The read touches no data of any
 * session.
 */
final class StoreHealthIndicator extends AbstractReactiveHealthIndicator {

	/** The session, run or namespace id the probes read; never written. */
	static final String PROBE_ID = "agcore-health-probe";

	private final Object store;

	private final Supplier<Mono<?>> probe;

	private final Duration timeout;

	StoreHealthIndicator(Object store, Supplier<Mono<?>> probe, Duration timeout) {
		super("Store health check failed");
		this.store = store;
		this.probe = probe;
		this.timeout = timeout;
	}

	@Override
	protected Mono<Health> doHealthCheck(Health.Builder builder) {
		long start = System.nanoTime();
		return Mono.defer(this.probe)
			.timeout(this.timeout)
			.then(Mono.fromSupplier(() -> builder.up()
				.withDetail("store", this.store.getClass().getName())
				.withDetail("latencyMs", (System.nanoTime() - start) / 1_000_000)
				.build()))
			.onErrorResume((ex) -> Mono.just(builder.down()
				.withDetail("store", this.store.getClass().getName())
				.withDetail("error", ex.getClass().getSimpleName())
				.build()));
	}

}
