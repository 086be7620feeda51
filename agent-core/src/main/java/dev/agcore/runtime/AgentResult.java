package dev.agcore.runtime;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

import dev.agcore.memory.PendingTurn.PendingToolCall;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one turn.
 *
 * @param sessionId the session
 * @param output the agent's answer; for a turn that did not complete, a message saying why
 * @param status how the turn ended
 * @param usage tokens used by all model calls of the turn
 * @param toolExecutions the tool calls made, in order
 * @param messages the messages this turn added to the conversation (for an interrupted
 * turn: the messages so far, not yet stored in the history)
 * @param pendingToolCalls the calls waiting for a human decision when the turn is
 * {@link Status#INTERRUPTED}; empty otherwise
 * @param cost the cost of the turn's model calls with a configured price (see
 * {@link dev.agcore.model.ConfiguredChatModel}); null when none of them has one
 */
public record AgentResult(String sessionId, String output, Status status, Usage usage,
		List<ToolExecution> toolExecutions, List<Message> messages, List<PendingToolCall> pendingToolCalls,
		@Nullable BigDecimal cost) {

	public AgentResult {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(output, "'output' must not be null");
		Objects.requireNonNull(status, "'status' must not be null");
		Objects.requireNonNull(usage, "'usage' must not be null");
		toolExecutions = List.copyOf(toolExecutions);
		messages = List.copyOf(messages);
		pendingToolCalls = List.copyOf(pendingToolCalls);
	}

	public AgentResult(String sessionId, String output, Status status, Usage usage, List<ToolExecution> toolExecutions,
			List<Message> messages, List<PendingToolCall> pendingToolCalls) {
		this(sessionId, output, status, usage, toolExecutions, messages, pendingToolCalls, null);
	}

	public AgentResult(String sessionId, String output, Status status, Usage usage, List<ToolExecution> toolExecutions,
			List<Message> messages) {
		this(sessionId, output, status, usage, toolExecutions, messages, List.of());
	}

	/**
	 * Return the reasoning of the turn's last assistant message: the model's thinking
	 * behind its final answer, kept apart from {@link #output()}.
	 * @return the reasoning text, empty for none
	 */
	public String reasoning() {
		for (int i = this.messages.size() - 1; i >= 0; i--) {
			if (this.messages.get(i) instanceof AssistantMessage assistant) {
				return assistant.reasoningText();
			}
		}
		return "";
	}

	/**
	 * Return this result with the given cost.
	 * @param cost the cost of the turn, null when unknown
	 * @return the result
	 */
	public AgentResult withCost(@Nullable BigDecimal cost) {
		return new AgentResult(this.sessionId, this.output, this.status, this.usage, this.toolExecutions, this.messages,
				this.pendingToolCalls, cost);
	}

	public boolean isInterrupted() {
		return this.status == Status.INTERRUPTED;
	}

	public boolean isCompleted() {
		return this.status == Status.COMPLETED;
	}

	/**
	 * How a turn ended.
	 */
	public enum Status {

		/** The model gave a final answer. */
		COMPLETED,

		/** The model was still calling tools when the max-iterations bound was hit. */
		MAX_ITERATIONS_REACHED,

		/**
		 * Tool calls wait for a human decision; resume the turn with
		 * {@link Agent#resume}.
		 */
		INTERRUPTED

	}

}
