package dev.agcore.runtime;

import dev.agcore.observation.ContentCapture;
import org.jspecify.annotations.Nullable;

/**
 * How an agent logs and reports its turns (see {@link TurnLog}).
 *
 * @param capture whether the DEBUG lines of model and tool calls hold their content, and how
 * it is cleaned (the agent's observations' content capture)
 * @param listener told about each finished turn, or null for none
 */
record TurnLogSettings(ContentCapture capture, @Nullable TurnSummaryListener listener) {

	static final TurnLogSettings DEFAULTS = new TurnLogSettings(ContentCapture.OFF, null);

}
