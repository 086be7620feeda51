/**
 * Schedules of background runs: a {@link dev.agcore.run.schedule.RunScheduler} queues a
 * run of an agent or workflow at each fire time of a cron expression, once across all
 * instances sharing a {@link dev.agcore.run.RunStore}.
 */
@NullMarked
package dev.agcore.run.schedule;

import org.jspecify.annotations.NullMarked;
