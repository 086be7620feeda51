/**
 * Auto-configuration of background runs: the run store, the worker, the event stream,
 * the agent executor, the {@link dev.agcore.autoconfigure.run.Runs} facade and the
 * schedules of {@code agent.schedules}.
 */
@NullMarked
package dev.agcore.autoconfigure.run;

import org.jspecify.annotations.NullMarked;
