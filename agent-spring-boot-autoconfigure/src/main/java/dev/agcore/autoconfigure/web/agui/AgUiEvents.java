package dev.agcore.autoconfigure.web.agui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

import dev.agcore.memory.PendingTurn;
import dev.agcore.model.Usage;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import org.jspecify.annotations.Nullable;

/**
 * Turns the events of one agent turn into AG-UI events, in order: {@code RUN_STARTED},
 * then text messages, reasoning, tool calls and their results, plan steps, sub-agents and
 * state snapshots as they happen, and {@code RUN_FINISHED} or {@code RUN_ERROR}. Every
 * message, tool call, step and sub-agent it opens is closed before the run ends, as AG-UI
 * clients verify. Stateful: one instance per run, fed in order from one stream.
 * <p>
 * An event is a map in AG-UI's own field names, without the optional fields that have no
 * value (AG-UI clients refuse {@code null} for them).
 */
final class AgUiEvents {

	/** The AG-UI protocol version this producer speaks. */
	static final String PROTOCOL_VERSION = "1.0";

	// events of the run itself, never attributed to a sub-agent
	private static final Set<String> RUN_EVENTS = Set.of("RUN_STARTED", "RUN_FINISHED", "RUN_ERROR");

	private final String threadId;

	private final String runId;

	private final @Nullable String subagentRunId;

	private final Supplier<String> ids;

	private final AgUiState state;

	private @Nullable String textId;

	private @Nullable String reasoningSpanId;

	private @Nullable String reasoningId;

	// the assistant message of the current model response: tool calls name it as parent
	private @Nullable String assistantId;

	// the next text or tool call belongs to a new model response
	private boolean newResponse = true;

	private final Map<String, String> toolCalls = new HashMap<>();

	private final Map<String, String> progress = new HashMap<>();

	private final Map<String, AgUiEvents> subagents = new LinkedHashMap<>();

	private final Map<Integer, String> openSteps = new TreeMap<>();

	private AgUiEvents(String threadId, String runId, @Nullable String subagentRunId, Supplier<String> ids,
			AgUiState state) {
		this.threadId = threadId;
		this.runId = runId;
		this.subagentRunId = subagentRunId;
		this.ids = ids;
		this.state = state;
	}

	/**
	 * The events of a run.
	 * @param threadId the thread, the agent's session
	 * @param runId the run
	 * @param state the state the client sent, which snapshots extend
	 * @return the encoder
	 */
	static AgUiEvents of(String threadId, String runId, Map<String, Object> state) {
		return of(threadId, runId, state, () -> UUID.randomUUID().toString());
	}

	static AgUiEvents of(String threadId, String runId, Map<String, Object> state, Supplier<String> ids) {
		return new AgUiEvents(threadId, runId, null, ids, new AgUiState(state));
	}

	/** {@code RUN_STARTED}, the first event of every run. */
	List<Map<String, Object>> started() {
		Map<String, Object> started = event("RUN_STARTED");
		started.put("threadId", this.threadId);
		started.put("runId", this.runId);
		started.put("protocolVersion", PROTOCOL_VERSION);
		return List.of(started);
	}

	/**
	 * The AG-UI events of an agent event, none for one AG-UI has nothing for.
	 * @param event the agent event; a {@link AgentEvent.Failed} already says what a
	 * client may read
	 * @return the events, in order
	 */
	List<Map<String, Object>> next(AgentEvent event) {
		List<Map<String, Object>> out = new ArrayList<>();
		if (event instanceof AgentEvent.TextDelta text) {
			text(text.text(), out);
		}
		else if (event instanceof AgentEvent.ReasoningDelta reasoning) {
			reasoning(reasoning.text(), out);
		}
		else if (event instanceof AgentEvent.TextReset) {
			String discarded = this.textId;
			closeText(out);
			if (discarded != null) {
				// AG-UI cannot take text back: the client is told which message is void
				out.add(custom("agcore.text_reset", Map.of("messageId", discarded)));
			}
			this.newResponse = true;
		}
		else if (event instanceof AgentEvent.ToolCallStarted call) {
			toolCall(call.id(), call.name(), call.arguments(), out);
		}
		else if (event instanceof AgentEvent.ToolCallCompleted result) {
			toolResult(result, out);
		}
		else if (event instanceof AgentEvent.ToolProgress progress) {
			out.add(progress(progress));
		}
		else if (event instanceof AgentEvent.SubAgentEvent nested) {
			subagent(nested, out);
		}
		else if (event instanceof AgentEvent.PlanUpdate update) {
			plan(update, out);
		}
		else if (event instanceof AgentEvent.RunnerFallback fallback) {
			out.add(custom("agcore.runner_fallback",
					Map.of("from", fallback.from(), "to", fallback.to(), "reason", fallback.reason())));
		}
		else if (event instanceof AgentEvent.Completed completed) {
			closeAll(out);
			out.add(finished(completed.result(), null));
		}
		else if (event instanceof AgentEvent.Interrupted interrupted) {
			closeAll(out);
			// the calls waiting for approval, as the assistant's tool calls, then the interrupts
			for (PendingTurn.PendingToolCall call : interrupted.result().pendingToolCalls()) {
				if (!this.toolCalls.containsKey(call.id())) {
					toolCall(call.id(), call.name(), call.arguments(), out);
				}
			}
			out.add(finished(interrupted.result(), interrupts(interrupted.result())));
		}
		else if (event instanceof AgentEvent.Failed failed) {
			out.addAll(error(failed.errorType(), failed.message()));
		}
		// usage: summed on RUN_FINISHED
		return out;
	}

	/**
	 * {@code RUN_ERROR}: the run failed.
	 * @param code a stable code, never a class name
	 * @param message what went wrong, for the user
	 * @return the events that close what is open, then the error
	 */
	List<Map<String, Object>> error(String code, String message) {
		List<Map<String, Object>> out = new ArrayList<>();
		closeAll(out);
		Map<String, Object> error = event("RUN_ERROR");
		error.put("message", message);
		error.put("code", code);
		out.add(error);
		return out;
	}

	private void text(String delta, List<Map<String, Object>> out) {
		if (delta.isEmpty()) {
			return;
		}
		closeReasoning(out);
		if (this.textId == null) {
			this.textId = assistantMessage();
			Map<String, Object> start = event("TEXT_MESSAGE_START");
			start.put("messageId", this.textId);
			start.put("role", "assistant");
			out.add(start);
		}
		Map<String, Object> content = event("TEXT_MESSAGE_CONTENT");
		content.put("messageId", this.textId);
		content.put("delta", delta);
		out.add(content);
	}

	private void reasoning(String delta, List<Map<String, Object>> out) {
		if (delta.isEmpty()) {
			return;
		}
		closeText(out);
		if (this.reasoningId == null) {
			this.reasoningSpanId = this.ids.get();
			this.reasoningId = this.ids.get();
			Map<String, Object> span = event("REASONING_START");
			span.put("messageId", this.reasoningSpanId);
			out.add(span);
			Map<String, Object> start = event("REASONING_MESSAGE_START");
			start.put("messageId", this.reasoningId);
			start.put("role", "reasoning");
			out.add(start);
		}
		Map<String, Object> content = event("REASONING_MESSAGE_CONTENT");
		content.put("messageId", this.reasoningId);
		content.put("delta", delta);
		out.add(content);
	}

	// the arguments are whole when agcore starts a call: start, arguments and end at once
	private void toolCall(String id, String name, String arguments, List<Map<String, Object>> out) {
		closeText(out);
		closeReasoning(out);
		this.toolCalls.put(id, arguments);
		Map<String, Object> start = event("TOOL_CALL_START");
		start.put("toolCallId", id);
		start.put("toolCallName", name);
		start.put("parentMessageId", assistantMessage());
		out.add(start);
		if (!arguments.isEmpty()) {
			Map<String, Object> args = event("TOOL_CALL_ARGS");
			args.put("toolCallId", id);
			args.put("delta", arguments);
			out.add(args);
		}
		Map<String, Object> end = event("TOOL_CALL_END");
		end.put("toolCallId", id);
		out.add(end);
	}

	private void toolResult(AgentEvent.ToolCallCompleted result, List<Map<String, Object>> out) {
		closeText(out);
		closeReasoning(out);
		AgUiEvents subagent = this.subagents.remove(result.id());
		if (subagent != null) {
			// a sub-agent that did not report its end
			subagent.closeAll(out);
			out.add(subagent.subagentFinished(null));
		}
		Map<String, Object> message = event("TOOL_CALL_RESULT");
		message.put("messageId", this.ids.get());
		message.put("toolCallId", result.id());
		message.put("content", result.result());
		message.put("role", "tool");
		out.add(message);
		// the model answers the results in its next response
		this.newResponse = true;
		String arguments = this.toolCalls.get(result.id());
		if (this.subagentRunId == null && !result.error() && AgUiState.TODO_TOOL.equals(result.name())
				&& arguments != null && this.state.todos(arguments)) {
			out.add(snapshot());
		}
	}

	private Map<String, Object> progress(AgentEvent.ToolProgress progress) {
		Map<String, Object> content = new LinkedHashMap<>();
		content.put("toolCallId", progress.id());
		content.put("toolName", progress.name());
		content.put("progress", progress.progress());
		if (progress.total() != null) {
			content.put("total", progress.total());
		}
		if (progress.message() != null) {
			content.put("message", progress.message());
		}
		Map<String, Object> snapshot = event("ACTIVITY_SNAPSHOT");
		snapshot.put("messageId", this.progress.computeIfAbsent(progress.id(), (id) -> this.ids.get()));
		snapshot.put("activityType", "tool_progress");
		snapshot.put("content", content);
		return snapshot;
	}

	private void subagent(AgentEvent.SubAgentEvent nested, List<Map<String, Object>> out) {
		closeText(out);
		closeReasoning(out);
		AgUiEvents subagent = this.subagents.get(nested.toolCallId());
		if (subagent == null) {
			subagent = new AgUiEvents(this.threadId, this.runId, this.ids.get(), this.ids, this.state);
			this.subagents.put(nested.toolCallId(), subagent);
			Map<String, Object> started = new LinkedHashMap<>();
			started.put("type", "SUBAGENT_STARTED");
			started.put("subagentRunId", subagent.subagentRunId);
			started.put("name", nested.agent());
			if (this.subagentRunId != null) {
				started.put("parentSubagentRunId", this.subagentRunId);
			}
			started.put("parentToolCallId", nested.toolCallId());
			if (this.assistantId != null && this.toolCalls.containsKey(nested.toolCallId())) {
				started.put("parentMessageId", this.assistantId);
			}
			out.add(started);
		}
		AgentEvent inner = nested.event();
		if (inner instanceof AgentEvent.Completed) {
			subagent.closeAll(out);
			out.add(subagent.subagentFinished(null));
			this.subagents.remove(nested.toolCallId());
		}
		else if (inner instanceof AgentEvent.Interrupted) {
			subagent.closeAll(out);
			out.add(subagent.subagentFinished(Map.of("type", "suspended")));
			this.subagents.remove(nested.toolCallId());
		}
		else if (inner instanceof AgentEvent.Failed failed) {
			subagent.closeAll(out);
			Map<String, Object> error = new LinkedHashMap<>();
			error.put("type", "SUBAGENT_ERROR");
			error.put("subagentRunId", subagent.subagentRunId);
			error.put("message", failed.message());
			error.put("code", failed.errorType());
			out.add(error);
			this.subagents.remove(nested.toolCallId());
		}
		else {
			out.addAll(subagent.next(inner));
		}
	}

	private Map<String, Object> subagentFinished(@Nullable Map<String, Object> outcome) {
		Map<String, Object> finished = new LinkedHashMap<>();
		finished.put("type", "SUBAGENT_FINISHED");
		finished.put("subagentRunId", this.subagentRunId);
		if (outcome != null) {
			finished.put("outcome", outcome);
		}
		return finished;
	}

	private void plan(AgentEvent.PlanUpdate update, List<Map<String, Object>> out) {
		closeText(out);
		closeReasoning(out);
		Integer index = update.stepIndex();
		switch (update.type()) {
			case AgentEvent.PlanUpdate.STEP_STARTED -> {
				if (index != null && !this.openSteps.containsKey(index)) {
					String name = AgUiState.stepName(update.plan().step(index));
					this.openSteps.put(index, name);
					out.add(step("STEP_STARTED", name));
				}
			}
			case AgentEvent.PlanUpdate.STEP_COMPLETED, AgentEvent.PlanUpdate.STEP_FAILED,
					AgentEvent.PlanUpdate.STEP_SKIPPED -> {
				String name = (index != null) ? this.openSteps.remove(index) : null;
				if (name != null) {
					out.add(step("STEP_FINISHED", name));
				}
			}
			// a new plan: its steps are numbered anew
			default -> closeSteps(out);
		}
		if (this.subagentRunId == null) {
			this.state.plan(update.plan());
			out.add(snapshot());
		}
	}

	private Map<String, Object> step(String type, String name) {
		Map<String, Object> step = event(type);
		step.put("stepName", name);
		return step;
	}

	private Map<String, Object> snapshot() {
		Map<String, Object> snapshot = event("STATE_SNAPSHOT");
		snapshot.put("snapshot", this.state.snapshot());
		return snapshot;
	}

	private Map<String, Object> finished(AgentResult result, @Nullable List<Map<String, Object>> interrupts) {
		Map<String, Object> finished = event("RUN_FINISHED");
		finished.put("threadId", this.threadId);
		finished.put("runId", this.runId);
		if (interrupts != null) {
			Map<String, Object> outcome = new LinkedHashMap<>();
			outcome.put("type", "interrupt");
			outcome.put("interrupts", interrupts);
			finished.put("outcome", outcome);
		}
		Usage usage = result.usage();
		if (!usage.isEmpty()) {
			Map<String, Object> tokens = new LinkedHashMap<>();
			tokens.put("inputTokens", usage.inputTokens());
			tokens.put("outputTokens", usage.outputTokens());
			tokens.put("totalTokens", usage.totalTokens());
			finished.put("usage", List.of(tokens));
		}
		return finished;
	}

	// one interrupt per call waiting for approval, answered by its id in the next run's resume
	private static List<Map<String, Object>> interrupts(AgentResult result) {
		return result.pendingToolCalls().stream().map((call) -> {
			Map<String, Object> interrupt = new LinkedHashMap<>();
			interrupt.put("id", call.id());
			interrupt.put("reason", "tool_approval");
			if (call.reason() != null && !call.reason().isBlank()) {
				interrupt.put("message", call.reason());
			}
			interrupt.put("toolCallId", call.id());
			interrupt.put("metadata", Map.of("toolName", call.name()));
			return interrupt;
		}).toList();
	}

	private String assistantMessage() {
		if (this.assistantId == null || this.newResponse) {
			this.assistantId = this.ids.get();
			this.newResponse = false;
		}
		return this.assistantId;
	}

	private void closeText(List<Map<String, Object>> out) {
		if (this.textId != null) {
			Map<String, Object> end = event("TEXT_MESSAGE_END");
			end.put("messageId", this.textId);
			out.add(end);
			this.textId = null;
		}
	}

	private void closeReasoning(List<Map<String, Object>> out) {
		if (this.reasoningId != null) {
			Map<String, Object> end = event("REASONING_MESSAGE_END");
			end.put("messageId", this.reasoningId);
			out.add(end);
			Map<String, Object> span = event("REASONING_END");
			span.put("messageId", this.reasoningSpanId);
			out.add(span);
			this.reasoningId = null;
			this.reasoningSpanId = null;
		}
	}

	private void closeSteps(List<Map<String, Object>> out) {
		for (String name : this.openSteps.values()) {
			out.add(step("STEP_FINISHED", name));
		}
		this.openSteps.clear();
	}

	// before the run or a sub-agent ends: AG-UI clients refuse an end with anything open
	private void closeAll(List<Map<String, Object>> out) {
		closeText(out);
		closeReasoning(out);
		for (AgUiEvents subagent : this.subagents.values()) {
			subagent.closeAll(out);
			out.add(subagent.subagentFinished(null));
		}
		this.subagents.clear();
		closeSteps(out);
	}

	private Map<String, Object> custom(String name, Object value) {
		Map<String, Object> custom = event("CUSTOM");
		custom.put("name", name);
		custom.put("value", value);
		return custom;
	}

	// a sub-agent's events say whose they are
	private Map<String, Object> event(String type) {
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("type", type);
		if (this.subagentRunId != null && !RUN_EVENTS.contains(type)) {
			event.put("subagentRunId", this.subagentRunId);
		}
		return event;
	}

}
