package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * The mutable state of one turn, which middleware sees as its {@link AgentContext}.
 * Confined to the turn's pipeline, which touches it from one thread at a time.
 */
final class Turn implements AgentContext {

	private final String agentName;

	private final AgentRequest request;

	private final List<Message> history;

	/** The conversation: history, then this turn's messages. The system prompt is not in it. */
	private final List<Message> messages;

	private final List<ToolExecution> executions = new ArrayList<>(4);

	private int modelCalls;

	private Usage usage = Usage.EMPTY;

	private @Nullable String output;

	private AgentResult.@Nullable Status status;

	private @Nullable Map<String, Object> attributes;

	/** Index of the user message in {@link #messages} once before-agent hooks have run. */
	private int turnStart;

	Turn(String agentName, AgentRequest request, List<Message> history) {
		this.agentName = agentName;
		this.request = request;
		this.history = history;
		this.messages = new ArrayList<>(history.size() + 6);
		this.messages.addAll(history);
		this.messages.add(new UserMessage(request.message()));
		this.turnStart = history.size();
	}

	/** Called after before-agent hooks: the last message is this turn's (possibly edited) input. */
	void markTurnStart() {
		if (this.messages.isEmpty()) {
			throw new IllegalStateException("Middleware removed every message of the conversation");
		}
		this.turnStart = this.messages.size() - 1;
	}

	@Override
	public String agentName() {
		return this.agentName;
	}

	@Override
	public String sessionId() {
		return this.request.sessionId();
	}

	@Override
	public Map<String, Object> state() {
		return this.request.state();
	}

	@Override
	public int modelCalls() {
		return this.modelCalls;
	}

	@Override
	public Map<String, Object> attributes() {
		if (this.attributes == null) {
			this.attributes = new HashMap<>();
		}
		return this.attributes;
	}

	List<Message> messages() {
		return this.messages;
	}

	ChatRequest nextRequest(String systemPrompt, List<ToolSpec> tools, ChatOptions options) {
		this.modelCalls++;
		if (systemPrompt.isEmpty()) {
			return new ChatRequest(this.messages, tools, options);
		}
		Message[] prompt = new Message[this.messages.size() + 1];
		prompt[0] = new SystemMessage(systemPrompt);
		for (int i = 0; i < this.messages.size(); i++) {
			prompt[i + 1] = this.messages.get(i);
		}
		return new ChatRequest(List.of(prompt), tools, options);
	}

	/** Record the model's response; return its tool calls (empty when the turn is done). */
	List<ToolCall> accept(ChatResponse response) {
		AssistantMessage message = response.message();
		this.messages.add(message);
		this.usage = this.usage.plus(response.usage());
		if (!message.hasToolCalls()) {
			finish(message.text(), AgentResult.Status.COMPLETED);
		}
		return message.toolCalls();
	}

	/** Add the results in call order, whatever order they finished in. */
	void acceptToolResults(List<ToolCall> calls, ToolResultMessage[] results) {
		for (int i = 0; i < calls.size(); i++) {
			ToolCall call = calls.get(i);
			ToolResultMessage result = results[i];
			this.messages.add(result);
			this.executions.add(new ToolExecution(call.id(), call.name(), call.arguments(), result.text(),
					result.error()));
		}
	}

	void finishMaxIterations(int maxIterations) {
		finish("Agent '" + this.agentName + "' stopped after " + maxIterations
				+ " model calls without a final answer (max-iterations is " + maxIterations + ")",
				AgentResult.Status.MAX_ITERATIONS_REACHED);
	}

	private void finish(String output, AgentResult.Status status) {
		this.output = output;
		this.status = status;
	}

	boolean isFinished() {
		return this.status != null;
	}

	/**
	 * Return whether the stored history is still the prefix of the conversation, so the
	 * turn can be appended; false when middleware rewrote it.
	 */
	boolean historyUnchanged() {
		if (this.turnStart != this.history.size()) {
			return false;
		}
		for (int i = 0; i < this.history.size(); i++) {
			if (this.messages.get(i) != this.history.get(i)) {
				return false;
			}
		}
		return true;
	}

	/** The messages of this turn: its input and everything after it. */
	List<Message> turnMessages() {
		return this.messages.subList(Math.min(this.turnStart, this.messages.size()), this.messages.size());
	}

	AgentResult result() {
		if (this.output == null || this.status == null) {
			throw new IllegalStateException("Turn is not finished");
		}
		return new AgentResult(sessionId(), this.output, this.status, this.usage, this.executions, turnMessages());
	}

}
