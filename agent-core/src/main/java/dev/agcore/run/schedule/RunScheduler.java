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
import dev.agcore.support.LogSafe;
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
 * A fire time is due once between two ticks: a scheduler that paused longer than an
 * interval (or whose store was down) submits only the latest fire time it missed, not each
 * of them. A scheduler that starts looks back only its schedule's
 * {@link RunSchedule#catchUp() catch-up} (a minute by default), so a restart does not skip
 * a fire time, while a schedule deployed at noon for 02:00 waits for the next 02:00. A
 * submit that fails (the store is unreachable) is tried again at the next tick.
 */
public final class RunScheduler {

	/** How often a started scheduler ticks by default. */
	public static final Duration DEFAULT_TICK = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(RunScheduler.class);

	// windows searched for the latest fire time, widening until one is found, so that a
	// frequent expression after a long gap does not walk every fire time since
	private static final List<Duration> LOOK_BACK = List.of(Duration.ofMinutes(1), Duration.ofHours(1),
			Duration.ofDays(1), Duration.ofDays(32), Duration.ofDays(367));

	private final RunStore store;

	private final List<RunSchedule> schedules;

	private final Clock clock;

	/** Per schedule, the time up to which its fire times were submitted (or none were due). */
	private final Map<String, Instant> checkedUntil = new ConcurrentHashMap<>();

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
		Instant since = this.checkedUntil.computeIfAbsent(schedule.name(), (name) -> now.minus(schedule.catchUp()));
		Instant fire = latestFireTime(schedule, now, since);
		if (fire == null) {
			this.checkedUntil.merge(schedule.name(), now, RunScheduler::later);
			return Mono.empty();
		}
		RunRequest request = RunRequest.of(schedule.kind(), schedule.target(), schedule.sessionId(), schedule.input())
			.withIdempotencyKey(schedule.idempotencyKey(fire.getEpochSecond()));
		return this.store.submit(request)
			.doOnNext((run) -> this.checkedUntil.merge(schedule.name(), now, RunScheduler::later))
			.onErrorResume((ex) -> {
				logger.warn("Schedule '{}' could not queue its run of {}; trying again at the next tick: {}",
						LogSafe.text(schedule.name()), fire, LogSafe.text(ex.getMessage()));
				return Mono.empty();
			});
	}

	private static Instant later(Instant a, Instant b) {
		return a.isAfter(b) ? a : b;
	}

	/** The latest fire time after {@code since} and not after now; null for none. */
	static @Nullable Instant latestFireTime(RunSchedule schedule, Instant now, Instant since) {
		CronExpression expression = schedule.expression();
		ZonedDateTime end = now.atZone(schedule.zone());
		for (Duration back : LOOK_BACK) {
			ZonedDateTime from = now.minus(back).atZone(schedule.zone());
			if (since.isAfter(from.toInstant())) {
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
			if (!since.isBefore(now.minus(back))) {
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
				logger.warn("Run schedules failed to tick", LogSafe.throwable(ex));
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
