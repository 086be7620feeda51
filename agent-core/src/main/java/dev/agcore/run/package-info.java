/**
 * Background runs: work that outlives one HTTP request, queued in a {@link dev.agcore.run.RunStore},
 * claimed under a lease by a {@link dev.agcore.run.RunWorker} on any instance, executed by
 * the {@link dev.agcore.run.RunExecutor} of its kind, its events stored so that any
 * instance can stream them and a client that reconnects misses nothing.
 */
@NullMarked
package dev.agcore.run;

import org.jspecify.annotations.NullMarked;
