package dev.agcore.runtime;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * Receives what happens during a turn as it happens. The streaming path turns these into
 * {@link AgentEvent}s; the plain path ignores them.
 */
interface TurnListener {

	TurnListener NONE = new TurnListener() {
	};

	/** Whether the model should be called in streaming mode. */
	default boolean streaming() {
		return false;
	}

	default void onText(String delta) {
	}

	/** A piece of the model's reasoning, never part of its answer. */
	default void onReasoning(String delta) {
	}

	/** The text sent for the current model response is void; a replacement follows. */
	default void onTextReset() {
	}

	default void onUsage(Usage usage) {
	}

	default void onToolCallStarted(ToolCall call) {
	}

	default void onToolCallCompleted(ToolResultMessage result) {
	}

	/** The turn starts over with another runner; what was streamed of the first attempt is void. */
	default void onRunnerFallback(String from, String to, String reason) {
	}

	/** A running tool reported progress; called from the tool's thread. */
	default void onToolProgress(ToolCall call, double progress, @Nullable Double total, @Nullable String message) {
	}

	/** A sub-agent run by a tool call emitted an event; called from the tool's thread. */
	default void onSubAgentEvent(ToolCall call, String agent, AgentEvent event) {
	}

}
