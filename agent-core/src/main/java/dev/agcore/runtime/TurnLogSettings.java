package dev.agcore.runtime;

import org.jspecify.annotations.Nullable;

/**
 * How an agent logs and reports its turns (see {@link TurnLog}).
 *
 * @param captureContent whether the DEBUG lines of model and tool calls hold their content
 * @param listener told about each finished turn, or null for none
 */
record TurnLogSettings(boolean captureContent, @Nullable TurnSummaryListener listener) {

	static final TurnLogSettings DEFAULTS = new TurnLogSettings(false, null);

}
