package dev.agcore.middleware;

import java.util.Objects;

import dev.agcore.AgentException;
import dev.agcore.message.ToolCall;

/**
 * Signals, from {@link AgentMiddleware#wrapToolCall}, that a tool call must wait for a
 * human decision. The turn finishes the other calls of the same model response, then
 * pauses: it ends with status {@code INTERRUPTED}, its state is kept in the conversation
 * store, and {@code Agent.resume} continues it once the calls are decided.
 */
public class ToolCallInterrupt extends AgentException {

	private final ToolCall call;

	private final String reason;

	public ToolCallInterrupt(ToolCall call, String reason) {
		super("Tool call '" + call.name() + "' (" + call.id() + ") needs a decision: " + reason);
		this.call = Objects.requireNonNull(call, "'call' must not be null");
		this.reason = Objects.requireNonNull(reason, "'reason' must not be null");
	}

	public ToolCall call() {
		return this.call;
	}

	public String reason() {
		return this.reason;
	}

}
