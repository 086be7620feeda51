package dev.agcore.run.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.agcore.run.ForwardingRunStore;
import dev.agcore.run.InMemoryRunStore;
import dev.agcore.run.MutableClock;
import dev.agcore.run.Run;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RunScheduler}.
 */
class RunSchedulerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final ObjectNode INPUT = JsonMapper.builder().build().createObjectNode().put("message", "Report");

	// 12:00:30 UTC
	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T12:00:30Z"));

	private final InMemoryRunStore runs = new InMemoryRunStore(this.clock);

	private final DownRunStore store = new DownRunStore(this.runs);

	private final RunSchedule everyFiveMinutes = new RunSchedule("report", "agent", "assistant", "0 */5 * * * *",
			ZoneOffset.UTC, "schedule-report", INPUT);

	@Test
	void twoSchedulersOnOneStoreQueueEachFireTimeOnce() {
		RunScheduler a = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);
		RunScheduler b = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);

		for (int second = 0; second < 20 * 60; second += 7) {
			a.tick().collectList().block(TIMEOUT);
			b.tick().collectList().block(TIMEOUT);
			this.clock.advance(Duration.ofSeconds(7));
		}

		// 12:00 at the first tick, then 12:05 ... 12:20
		assertThat(queued("schedule-report")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"), key("12:05"), key("12:10"), key("12:15"), key("12:20"));
		Run first = queued("schedule-report").get(0);
		assertThat(first.kind()).isEqualTo("agent");
		assertThat(first.target()).isEqualTo("assistant");
		assertThat(first.sessionId()).isEqualTo("schedule-report");
		assertThat(first.request().input().get("message").asString()).isEqualTo("Report");
	}

	@Test
	void afterDowntimeOnlyTheLatestMissedFireTimeRuns() {
		RunScheduler scheduler = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);
		scheduler.tick().collectList().block(TIMEOUT);
		this.clock.advance(Duration.ofMinutes(23));

		scheduler.tick().collectList().block(TIMEOUT);
		scheduler.tick().collectList().block(TIMEOUT);

		assertThat(queued("schedule-report")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"), key("12:20"));
	}

	@Test
	void aStartingSchedulerQueuesAMissedFireTimeOnlyWithinItsCatchUp() {
		// started at 12:03:00: 12:00 is three minutes past, beyond the default minute
		this.clock.advance(Duration.ofSeconds(150));
		RunScheduler scheduler = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);
		scheduler.tick().collectList().block(TIMEOUT);
		assertThat(queued("schedule-report")).isEmpty();

		this.clock.advance(Duration.ofMinutes(2));
		scheduler.tick().collectList().block(TIMEOUT);
		assertThat(queued("schedule-report")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:05"));
	}

	@Test
	void aLongerCatchUpQueuesTheNightlyRunMissedWhileNoInstanceRan() {
		RunSchedule nightly = new RunSchedule("nightly", "workflow", "cleanup", "0 0 2 * * *", ZoneOffset.UTC,
				"schedule-nightly", INPUT, Duration.ofDays(1));
		RunSchedule deployedAtNoon = new RunSchedule("deployed", "workflow", "cleanup", "0 0 2 * * *",
				ZoneOffset.UTC, "schedule-deployed", INPUT);

		new RunScheduler(this.store, List.of(nightly, deployedAtNoon), this.clock).tick().collectList().block(TIMEOUT);

		assertThat(queued("schedule-nightly")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly("schedule:nightly:" + Instant.parse("2026-11-26T02:00:00Z").getEpochSecond());
		assertThat(queued("schedule-deployed")).isEmpty();
	}

	@Test
	void aFireTimeBetweenTwoTicksIsQueuedWhateverTheCatchUp() {
		RunSchedule noCatchUp = new RunSchedule("report", "agent", "assistant", "0 */5 * * * *", ZoneOffset.UTC,
				"schedule-report", INPUT, Duration.ZERO);
		RunScheduler scheduler = new RunScheduler(this.store, List.of(noCatchUp), this.clock);
		scheduler.tick().collectList().block(TIMEOUT);
		assertThat(queued("schedule-report")).as("12:00 was before the start").isEmpty();

		// ticks at 12:04:59.6 and 12:05:00.6: the fire time falls between them
		this.clock.advance(Duration.ofMillis(269_600));
		scheduler.tick().collectList().block(TIMEOUT);
		this.clock.advance(Duration.ofSeconds(1));
		scheduler.tick().collectList().block(TIMEOUT);
		assertThat(queued("schedule-report")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:05"));
	}

	@Test
	void aFailedSubmitIsTriedAgainAtTheNextTick() {
		RunScheduler scheduler = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);
		this.store.down(true);
		assertThat(scheduler.tick().collectList().block(TIMEOUT)).isEmpty();
		this.store.down(false);

		assertThat(scheduler.tick().collectList().block(TIMEOUT)).hasSize(1);
		assertThat(queued("schedule-report")).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"));
	}

	@Test
	void theExpressionIsReadInTheSchedulesZone() {
		// 02:00 in Berlin is 01:00 UTC in winter
		RunSchedule nightly = new RunSchedule("nightly", "workflow", "cleanup", "0 0 2 * * *",
				ZoneId.of("Europe/Berlin"), "schedule-nightly", INPUT);

		Instant fire = RunScheduler.latestFireTime(nightly, Instant.parse("2026-11-26T12:00:00Z"),
				Instant.parse("2026-11-25T12:00:00Z"));

		assertThat(fire).isEqualTo(Instant.parse("2026-11-26T01:00:00Z"));
	}

	@Test
	void anInvalidCronExpressionIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RunSchedule("bad", "agent", "assistant",
				"every five minutes", ZoneOffset.UTC, "s", INPUT));
	}

	/** The runs queued in a session, oldest first. */
	private List<Run> queued(String sessionId) {
		List<Run> runs = new ArrayList<>(this.runs.list(sessionId, 0, 1000).collectList().block(TIMEOUT));
		Collections.reverse(runs);
		return runs;
	}

	private static String key(String time) {
		return "schedule:report:" + Instant.parse("2026-11-26T" + time + ":00Z").getEpochSecond();
	}

	/** A store whose submissions fail while it is down. */
	private static final class DownRunStore extends ForwardingRunStore {

		private volatile boolean down;

		DownRunStore(RunStore delegate) {
			super(delegate);
		}

		void down(boolean down) {
			this.down = down;
		}

		@Override
		public Mono<Run> submit(RunRequest request) {
			return Mono.defer(() -> this.down ? Mono.error(new IllegalStateException("store down"))
					: super.submit(request));
		}

	}

}
