/**
 * AssertJ assertions for agents: over a turn's {@link dev.agcore.runtime.AgentResult},
 * its {@link dev.agcore.runtime.AgentEvent} stream, a {@link dev.agcore.model.ChatRequest}
 * a model received and the meters a turn recorded. Start from {@link AgentAssertions}.
 * Needs AssertJ on the class path (an optional dependency: use it from test scope).
 */
@NullMarked
package dev.agcore.testing.assertj;

import org.jspecify.annotations.NullMarked;
