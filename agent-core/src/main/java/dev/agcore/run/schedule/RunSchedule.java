package dev.agcore.run.schedule;

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
 */
public record RunSchedule(String name, String kind, String target, String cron, ZoneId zone, String sessionId,
		JsonNode input) {

	public RunSchedule {
		Objects.requireNonNull(name, "'name' must not be null");
		Objects.requireNonNull(zone, "'zone' must not be null");
		Objects.requireNonNull(input, "'input' must not be null");
		// fails on an invalid expression, with the parser's reason
		CronExpression.parse(Objects.requireNonNull(cron, "'cron' must not be null"));
		// the request checks kind, target and session as any run's
		RunRequest.of(kind, target, sessionId, input);
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
