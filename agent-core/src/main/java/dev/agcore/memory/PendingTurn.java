package dev.agcore.memory;

import java.util.List;
import java.util.Objects;

import dev.agcore.message.Message;

/**
 * A turn paused for human approval, as kept by a {@link ConversationStore} until it is
 * resumed. Plain data, so persistent stores can serialise it.
 *
 * @param agentName the agent that ran the turn
 * @param messages the turn's messages so far: the user input, then model responses and
 * the results of calls that did run; the last assistant message has the pending calls
 * @param pendingCalls the calls waiting for a decision
 * @param modelCalls how many model calls the turn made before pausing
 * @param inputTokens input tokens used so far
 * @param outputTokens output tokens used so far
 */
public record PendingTurn(String agentName, List<Message> messages, List<PendingToolCall> pendingCalls,
		int modelCalls, long inputTokens, long outputTokens) {

	public PendingTurn {
		Objects.requireNonNull(agentName, "'agentName' must not be null");
		messages = List.copyOf(messages);
		pendingCalls = List.copyOf(pendingCalls);
	}

	/**
	 * A tool call waiting for a decision.
	 *
	 * @param id the call id
	 * @param name the tool name
	 * @param arguments the arguments the model proposed
	 * @param reason why the call needs a decision
	 */
	public record PendingToolCall(String id, String name, String arguments, String reason) {

	}

}
