package dev.agcore.run.schedule;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

import dev.agcore.run.RunRequest;
import tools.jackson.databind.JsonNode;

import org.springframework.scheduling.support.CronExpression;

/**
 * A run to queue at each fire time of a cron expression.
 *
 * @param name the schedule's name, part of each run's idempotency key
 * @param kind what executes the runs: {@code agent} or {@code workflow}
 * @param target the agent or workflow, by name
 * @param cron when, as a Spring cron expression with seconds ({@code "0 0/5 * * * *"}: every
 * five minutes), checked when the schedule is made
 * @param zone the time zone the expression is read in
 * @param sessionId the session of the runs
 * @param input the input of each run, as its executor reads it
 * @param catchUp how far back a scheduler that starts looks for a fire time it missed
 * while no instance ran: a fire time within it is queued at startup (once, however many
 * instances start), older ones are skipped
 */
public record RunSchedule(String name, String kind, String target, String cron, ZoneId zone, String sessionId,
		JsonNode input, Duration catchUp) {

	/** The default catch-up: a restart or a deployment does not skip a fire time. */
	public static final Duration DEFAULT_CATCH_UP = Duration.ofMinutes(1);

	public RunSchedule {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(zone, "'zone' must not be null");
		Objects.requireNonNull(input, "'input' must not be null");
		if (Objects.requireNonNull(catchUp, "'catchUp' must not be null").isNegative()) {
			throw new IllegalArgumentException("'catchUp' must not be negative, was " + catchUp);
		}
		// fails on an invalid expression, with the parser's reason
		CronExpression.parse(Objects.requireNonNull(cron, "'cron' must not be null"));
		// the request checks kind, target and session as any run's
		RunRequest.of(kind, target, sessionId, input);
	}

	/**
	 * A schedule with the {@linkplain #DEFAULT_CATCH_UP default catch-up}.
	 * @param name the schedule's name
	 * @param kind {@code agent} or {@code workflow}
	 * @param target the agent or workflow
	 * @param cron the cron expression, with seconds
	 * @param zone the time zone it is read in
	 * @param sessionId the session of the runs
	 * @param input the input of each run
	 */
	public RunSchedule(String name, String kind, String target, String cron, ZoneId zone, String sessionId,
			JsonNode input) {
		this(name, kind, target, cron, zone, sessionId, input, DEFAULT_CATCH_UP);
	}

	/**
	 * Return the idempotency key of the run of one fire time, the same on every instance.
	 * @param fireEpochSecond the fire time, in seconds since the epoch
	 * @return {@code schedule:<name>:<fireEpochSecond>}
	 */
	public String idempotencyKey(long fireEpochSecond) {
		return "schedule:" + this.name + ":" + fireEpochSecond;
	}

	CronExpression expression() {
		return CronExpression.parse(this.cron);
	}

}
