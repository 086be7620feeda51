package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * The mutable state of one turn. Confined to the turn's pipeline, which touches it from
 * one thread at a time.
 */
final class Turn {

	private final AgentRequest request;

	private final List<Message> messages;

	private final int firstNewMessage;

	private final List<ToolExecution> executions = new ArrayList<>(4);

	private int modelCalls;

	private Usage usage = Usage.EMPTY;

	private @Nullable AgentResult result;

	Turn(AgentRequest request, String systemPrompt, List<Message> history) {
		this.request = request;
		this.messages = new ArrayList<>(history.size() + 6);
		if (!systemPrompt.isEmpty()) {
			this.messages.add(new SystemMessage(systemPrompt));
		}
		this.messages.addAll(history);
		this.firstNewMessage = this.messages.size();
		this.messages.add(new UserMessage(request.message()));
	}

	String sessionId() {
		return this.request.sessionId();
	}

	Map<String, Object> state() {
		return this.request.state();
	}

	int modelCalls() {
		return this.modelCalls;
	}

	ChatRequest nextRequest(List<ToolSpec> tools, ChatOptions options) {
		this.modelCalls++;
		return new ChatRequest(this.messages, tools, options);
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

	void finishMaxIterations(String agentName, int maxIterations) {
		finish("Agent '" + agentName + "' stopped after " + maxIterations
				+ " model calls without a final answer (max-iterations is " + maxIterations + ")",
				AgentResult.Status.MAX_ITERATIONS_REACHED);
	}

	private void finish(String output, AgentResult.Status status) {
		this.result = new AgentResult(sessionId(), output, status, this.usage, this.executions, newMessages());
	}

	boolean isFinished() {
		return this.result != null;
	}

	AgentResult result() {
		if (this.result == null) {
			throw new IllegalStateException("Turn is not finished");
		}
		return this.result;
	}

	List<Message> newMessages() {
		return this.messages.subList(this.firstNewMessage, this.messages.size());
	}

}
