/**
 * Auto-configuration of background runs: the run store, the worker, the event stream,
 * the agent executor and the {@link dev.agcore.autoconfigure.run.Runs} facade.
 */
@NullMarked
package dev.agcore.autoconfigure.run;

import org.jspecify.annotations.NullMarked;
