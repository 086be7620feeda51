package dev.agcore.run.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import dev.agcore.run.Run;
import org.junit.jupiter.api.Test;
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

	private final IdempotentRunStore store = new IdempotentRunStore();

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
		assertThat(this.store.queued()).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"), key("12:05"), key("12:10"), key("12:15"), key("12:20"));
		Run first = this.store.queued().get(0);
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

		assertThat(this.store.queued()).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"), key("12:20"));
	}

	@Test
	void aFailedSubmitIsTriedAgainAtTheNextTick() {
		RunScheduler scheduler = new RunScheduler(this.store, List.of(this.everyFiveMinutes), this.clock);
		this.store.down(true);
		assertThat(scheduler.tick().collectList().block(TIMEOUT)).isEmpty();
		this.store.down(false);

		assertThat(scheduler.tick().collectList().block(TIMEOUT)).hasSize(1);
		assertThat(this.store.queued()).extracting((run) -> run.request().idempotencyKey())
			.containsExactly(key("12:00"));
	}

	@Test
	void theExpressionIsReadInTheSchedulesZone() {
		// 02:00 in Berlin is 01:00 UTC in winter
		RunSchedule nightly = new RunSchedule("nightly", "workflow", "cleanup", "0 0 2 * * *",
				ZoneId.of("Europe/Berlin"), "schedule-nightly", INPUT);

		Instant fire = RunScheduler.latestFireTime(nightly, Instant.parse("2026-11-26T12:00:00Z"), null);

		assertThat(fire).isEqualTo(Instant.parse("2026-11-26T01:00:00Z"));
	}

	@Test
	void anInvalidCronExpressionIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RunSchedule("bad", "agent", "assistant",
				"every five minutes", ZoneOffset.UTC, "s", INPUT));
	}

	private static String key(String time) {
		return "schedule:report:" + Instant.parse("2026-11-26T" + time + ":00Z").getEpochSecond();
	}

	static final class MutableClock extends Clock {

		private volatile Instant now;

		MutableClock(Instant now) {
			this.now = now;
		}

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
