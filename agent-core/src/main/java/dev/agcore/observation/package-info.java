/**
 * Metrics of model calls, tool calls and chains, named after the OpenTelemetry GenAI
 * semantic conventions where they exist.
 */
@NullMarked
package dev.agcore.observation;

import org.jspecify.annotations.NullMarked;
