package dev.agcore.autoconfigure.run;

import java.time.Duration;

import dev.agcore.run.RunStore;
import dev.agcore.run.RunWorker;
import dev.agcore.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;

/**
 * Starts the worker once the context is refreshed and stops it (giving its runs back to
 * the queue) before shutdown; purges finished runs on a schedule.
 */
final class RunLifecycle implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(RunLifecycle.class);

	private static final Duration PURGE_EVERY = Duration.ofHours(1);

	private final RunStore store;

	private final @Nullable RunWorker worker;

	private final Duration retention;

	private volatile @Nullable Disposable purging;

	RunLifecycle(RunStore store, @Nullable RunWorker worker, Duration retention) {
		this.store = store;
		this.worker = worker;
		this.retention = retention;
	}

	@Override
	public void start() {
		if (this.worker != null) {
			this.worker.start();
		}
		Duration every = (this.retention.compareTo(PURGE_EVERY) < 0) ? this.retention : PURGE_EVERY;
		this.purging = Flux.interval(every, every)
			.onBackpressureDrop()
			.concatMap((tick) -> this.store.purge(this.retention).onErrorResume((ex) -> {
				logger.warn("Purging finished runs failed: " + LogSafe.text(ex.getMessage()));
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	@Override
	public void stop(Runnable callback) {
		Disposable purging = this.purging;
		if (purging != null) {
			purging.dispose();
			this.purging = null;
		}
		if (this.worker == null) {
			callback.run();
			return;
		}
		this.worker.stop()
			.timeout(Duration.ofSeconds(10))
			.doOnError((ex) -> logger.warn("Giving runs back on shutdown failed: " + LogSafe.text(ex.getMessage())))
			.onErrorComplete()
			.doFinally((signal) -> callback.run())
			.subscribe();
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	@Override
	public boolean isRunning() {
		return this.purging != null;
	}

}
