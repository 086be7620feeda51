/**
 * Observations and metrics of agent turns, model calls, tool calls and chains, named
 * after the OpenTelemetry GenAI semantic conventions where they exist: see
 * {@link dev.agcore.observation.AgentObservationDocumentation} and
 * {@link dev.agcore.observation.MicrometerAgentMetrics}.
 */
@NullMarked
package dev.agcore.observation;

import org.jspecify.annotations.NullMarked;
