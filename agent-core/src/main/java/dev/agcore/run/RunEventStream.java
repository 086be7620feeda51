package dev.agcore.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Streams the events of a run from its {@link RunStore}, stored ones first, then live ones
 * as they are appended on any instance: the store's {@link RunStore#appended() signal}
 * says when to read again, and a poll tick guards against lost signals. Every event is
 * given once, in order: an event is given only when all before it were, so an event
 * whose predecessor is not yet readable waits for the next read.
 * <p>
 * The stream completes after an event that {@link RunEvent#endsStream() ends it} (when no
 * later event is stored yet), or at once when the run is final or interrupted and nothing
 * follows {@code afterSequence}. A run resumed later continues where a reconnecting
 * client's {@code Last-Event-ID} left off.
 *
 * @since 0.1.0
 */
public final class RunEventStream {

	static final int PAGE = 500;

	private static final Object END = new Object();

	private final RunStore store;

	private final Duration pollInterval;

	public RunEventStream(RunStore store, Duration pollInterval) {
		this.store = Objects.requireNonNull(store, "'store' must not be null");
		if (pollInterval.isZero() || pollInterval.isNegative()) {
			throw new IllegalArgumentException("'pollInterval' must be positive, was " + pollInterval);
		}
		this.pollInterval = pollInterval;
	}

	/**
	 * The events of a run after a sequence number.
	 * @param runId the run
	 * @param afterSequence the last event already seen ({@code Last-Event-ID}), {@code 0}
	 * for all
	 * @return the events; fails with {@link RunNotFoundException} for an unknown run
	 */
	public Flux<RunEvent> events(String runId, long afterSequence) {
		return this.store.find(runId)
			.switchIfEmpty(Mono.error(() -> new RunNotFoundException(runId)))
			.flatMapMany((run) -> {
				Cursor cursor = new Cursor(Math.max(afterSequence, 0));
				// subscribed to the signal first, so nothing appended after the first read is missed
				Flux<Boolean> triggers = Flux
					.merge(this.store.appended().filter(runId::equals).map((id) -> false),
							Flux.interval(this.pollInterval, this.pollInterval).map((tick) -> true), Mono.just(true))
					.onBackpressureLatest();
				return triggers.concatMap((checkStatus) -> read(runId, cursor, checkStatus), 1)
					.takeWhile((item) -> item != END)
					.cast(RunEvent.class);
			});
	}

	// a poll (and the first read) also looks at the run, before reading: a run found final
	// has all its events stored, so reading nothing new then means the stream is over
	private Flux<Object> read(String runId, Cursor cursor, boolean checkStatus) {
		if (!checkStatus) {
			return readNew(runId, cursor, false);
		}
		return this.store.find(runId)
			.map((run) -> run.status().isFinal() || run.status() == RunStatus.INTERRUPTED)
			.defaultIfEmpty(true)
			.flatMapMany((over) -> readNew(runId, cursor, over));
	}

	private Flux<Object> readNew(String runId, Cursor cursor, boolean runOver) {
		return page(runId, cursor, new ArrayList<>()).flatMapMany((events) -> {
			List<Object> items = new ArrayList<>(events);
			boolean ends = !events.isEmpty() && events.get(events.size() - 1).endsStream();
			if (ends || (events.isEmpty() && runOver)) {
				items.add(END);
			}
			return Flux.fromIterable(items);
		});
	}

	private Mono<List<RunEvent>> page(String runId, Cursor cursor, List<RunEvent> into) {
		return this.store.read(runId, cursor.last, PAGE).collectList().flatMap((events) -> {
			int before = into.size();
			for (RunEvent event : events) {
				if (event.sequence() == cursor.last + 1) {
					into.add(event);
					cursor.last = event.sequence();
				}
				else if (event.sequence() > cursor.last + 1) {
					// a gap: wait for the missing event rather than skip it
					return Mono.just(into);
				}
			}
			return (events.size() == PAGE && into.size() > before) ? page(runId, cursor, into) : Mono.just(into);
		});
	}

	/**
	 * The last event given, read and written only by the serialized reads of one stream.
	 */
	private static final class Cursor {

		private volatile long last;

		Cursor(long last) {
			this.last = last;
		}

	}

}
