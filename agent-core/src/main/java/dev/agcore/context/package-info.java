/**
 * The caller's thread-bound context (security context, MDC, current observation) carried
 * to the threads where a turn's tools, hooks and sub-agents run.
 */
@NullMarked
package dev.agcore.context;

import org.jspecify.annotations.NullMarked;
