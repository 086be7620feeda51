package dev.agcore.run.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.run.Run;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.scheduling.support.CronExpression;

/**
 * Queues the runs of {@link RunSchedule}s. Every instance runs a scheduler; at each tick
 * it submits, for each schedule, its latest fire time not after now that it has not
 * submitted yet, with the idempotency key {@code schedule:<name>:<fireEpochSecond>}. The
 * store queues one run per key, so each fire time runs once however many instances tick.
 * <p>
 * A scheduler that was down (or every instance was) submits only the latest fire time it
 * missed, not each of them; the first tick after start does the same, so a schedule fires
 * once at startup for its latest past fire time unless the store already has that run. A
 * submit that fails (the store is unreachable) is tried again at the next tick.
 */
public final class RunScheduler {

	/** How often a started scheduler ticks by default. */
	public static final Duration DEFAULT_TICK = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(RunScheduler.class);

	// how far back the first tick looks for a past fire time, widening until one is found
	private static final List<Duration> LOOK_BACK = List.of(Duration.ofMinutes(1), Duration.ofHours(1),
			Duration.ofDays(1), Duration.ofDays(32), Duration.ofDays(367));

	private final RunStore store;

	private final List<RunSchedule> schedules;

	private final Clock clock;

	/** The last fire time this instance submitted (or saw submitted) per schedule. */
	private final Map<String, Instant> submitted = new ConcurrentHashMap<>();

	private volatile @Nullable Disposable ticking;

	/**
	 * Create a scheduler.
	 * @param store where runs are queued
	 * @param schedules the schedules
	 * @param clock the clock, {@link Clock#systemUTC()} outside tests
	 */
	public RunScheduler(RunStore store, List<RunSchedule> schedules, Clock clock) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		this.schedules = List.copyOf(schedules);
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
	}

	/**
	 * Return the schedules.
	 * @return the schedules
	 */
	public List<RunSchedule> schedules() {
		return this.schedules;
	}

	/**
	 * Submit the runs that are due now, one per schedule at most.
	 * @return the runs the store answered (queued now, or earlier by another instance)
	 */
	public Flux<Run> tick() {
		Instant now = this.clock.instant();
		return Flux.fromIterable(this.schedules).concatMap((schedule) -> due(schedule, now));
	}

	private Mono<Run> due(RunSchedule schedule, Instant now) {
		Instant last = this.submitted.get(schedule.name());
		Instant fire = latestFireTime(schedule, now, last);
		if (fire == null || (last != null && !fire.isAfter(last))) {
			return Mono.empty();
		}
		RunRequest request = RunRequest.of(schedule.kind(), schedule.target(), schedule.sessionId(), schedule.input())
			.withIdempotencyKey(schedule.idempotencyKey(fire.getEpochSecond()));
		return this.store.submit(request).doOnNext((run) -> this.submitted.merge(schedule.name(), fire,
				(a, b) -> a.isAfter(b) ? a : b)).onErrorResume((ex) -> {
					logger.warn("Schedule '{}' could not queue its run of {}; trying again at the next tick: {}",
							schedule.name(), fire, ex.getMessage());
					return Mono.empty();
				});
	}

	/** The latest fire time not after now, after {@code since} when given; null for none. */
	static @Nullable Instant latestFireTime(RunSchedule schedule, Instant now, @Nullable Instant since) {
		CronExpression expression = schedule.expression();
		ZonedDateTime end = now.atZone(schedule.zone());
		for (Duration back : LOOK_BACK) {
			ZonedDateTime from = now.minus(back).atZone(schedule.zone());
			if (since != null && since.isAfter(from.toInstant())) {
				from = since.atZone(schedule.zone());
			}
			ZonedDateTime latest = null;
			ZonedDateTime next = expression.next(from);
			while (next != null && !next.isAfter(end)) {
				latest = next;
				next = expression.next(next);
			}
			if (latest != null) {
				return latest.toInstant();
			}
			if (since != null && !since.isBefore(now.minus(back))) {
				// nothing since the last one submitted
				return null;
			}
		}
		return null;
	}

	/**
	 * Start ticking.
	 * @param every how often
	 */
	public synchronized void start(Duration every) {
		if (this.ticking != null || this.schedules.isEmpty()) {
			return;
		}
		this.ticking = Flux.interval(Duration.ZERO, every, Schedulers.parallel())
			.onBackpressureDrop()
			.concatMap((n) -> tick().onErrorResume((ex) -> {
				logger.warn("Run schedules failed to tick", ex);
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	/** Stop ticking; a submit under way may still finish. */
	public synchronized void stop() {
		Disposable ticking = this.ticking;
		if (ticking != null) {
			ticking.dispose();
			this.ticking = null;
		}
	}

	/**
	 * Return whether the scheduler ticks.
	 * @return whether it was started and not stopped
	 */
	public boolean isRunning() {
		return this.ticking != null;
	}

}
