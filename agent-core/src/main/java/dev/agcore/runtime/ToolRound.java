package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;

import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import org.jspecify.annotations.Nullable;

/**
 * The outcomes of one model response's tool calls, in call order, as they complete: a
 * result (told to the listener at once) or a call that waits for a decision.
 */
final class ToolRound {

	private final ToolResultMessage[] results;

	private final TurnListener listener;

	private @Nullable List<PendingToolCall> pending;

	ToolRound(int calls, TurnListener listener) {
		this.results = new ToolResultMessage[calls];
		this.listener = listener;
	}

	/** Add the outcome of one call; called as calls complete, one at a time. */
	void add(ToolRunner.IndexedResult indexed) {
		ToolResultMessage message = indexed.message();
		if (message != null) {
			this.results[indexed.index()] = message;
			this.listener.onToolCallCompleted(message);
		}
		else if (indexed.interrupt() != null) {
			ToolCall call = indexed.interrupt().call();
			if (this.pending == null) {
				this.pending = new ArrayList<>(1);
			}
			this.pending.add(
					new PendingToolCall(call.id(), call.name(), call.arguments(), indexed.interrupt().reason()));
		}
	}

	/** The results in call order; null where a call waits for a decision. */
	@Nullable ToolResultMessage[] results() {
		return this.results;
	}

	boolean hasPending() {
		return this.pending != null;
	}

	/** The calls that wait for a decision. */
	List<PendingToolCall> pending() {
		return (this.pending != null) ? this.pending : List.of();
	}

}
