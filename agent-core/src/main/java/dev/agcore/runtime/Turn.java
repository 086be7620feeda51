package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.SessionContextBlock;
import dev.agcore.memory.SessionMemory;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.memory.PendingTurn.PendingToolCall;
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
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * The mutable state of one turn, which middleware sees as its {@link AgentContext}.
 * Confined to the turn's pipeline, which touches it from one thread at a time.
 */
final class Turn implements AgentContext {

	private final String agentName;

	private final String sessionId;

	private final TurnScope scope;

	private final Map<String, Object> state;

	private final @Nullable String userId;

	/** The session's memory, read once at turn start, for the system prompt; empty for none. */
	private SessionContextBlock.Snapshot session = SessionContextBlock.Snapshot.EMPTY;

	private volatile @Nullable Map<String, Object> sessionValues;

	/** System text of this turn's request, the last layer of the system prompt; null for none. */
	private @Nullable String instructions;

	/** The user's locale as the request gave it; null when unknown. */
	private @Nullable Locale locale;

	private final List<Message> history;

	/** The conversation: history, then this turn's messages. The system prompt is not in it. */
	private final List<Message> messages;

	/** Call ids a human approved when resuming. */
	private final Set<String> approved;

	/** Call ids the permission policy refuses: never asked for approval; created when one is. */
	private volatile @Nullable Set<String> denied;

	private final boolean resumed;

	private final KeyValueStore store;

	private @Nullable SessionMemory memory;

	/** Index of the turn's input in {@link #messages} once before-agent hooks have run. */
	private int turnStart;

	/** The turn's input message, to find the turn again if after-agent hooks move it. */
	private @Nullable Message input;

	private int modelCalls;

	/** Model calls made before this run of the turn: a forced tool choice applies to the first after them. */
	private int callsAtStart;

	private @Nullable TurnSetup setup;

	/** Whether the model was asked once more for a structured answer. */
	private boolean repaired;

	private Usage usage = Usage.EMPTY;

	/** Tokens of sub-agents this turn's tools ran; written by tool threads, under the turn's lock. */
	private volatile Usage nestedUsage = Usage.EMPTY;

	private @Nullable String output;

	private AgentResult.@Nullable Status status;

	private List<PendingToolCall> pendingCalls = List.of();

	private @Nullable Map<String, Object> attributes;

	/** The version of the stored conversation this turn read: where its changes are stored. */
	private final long historyVersion;

	/** The agent whose answer ends the stored history when it is not this one; null for none. */
	private final @Nullable String previousAgent;

	/** Exceptions behind failed tool calls, by call id; written by tool threads; created when one fails. */
	private volatile @Nullable Map<String, Throwable> toolFailures;

	/** A new turn: the history, then the user's message. */
	Turn(String agentName, AgentRequest request, Conversation history, KeyValueStore store, TurnScope scope) {
		this(agentName, request.sessionId(), request.state(), request.userId(), history, Set.of(), false, store,
				scope);
		this.messages.add(new UserMessage(request.message(), request.media(), null));
		this.instructions = request.instructions();
		this.locale = request.locale();
	}

	/** A paused turn being resumed: the history, then the turn's messages so far. */
	Turn(String agentName, ResumeRequest request, Conversation history, PendingTurn pending, Set<String> approved,
			KeyValueStore store, TurnScope scope) {
		this(agentName, request.sessionId(), request.state(), request.userId(), history, approved, true, store, scope);
		this.messages.addAll(pending.messages());
		this.modelCalls = pending.modelCalls();
		this.usage = Usage.of(pending.inputTokens(), pending.outputTokens());
		this.callsAtStart = this.modelCalls;
	}

	private Turn(String agentName, String sessionId, Map<String, Object> state, @Nullable String userId,
			Conversation conversation, Set<String> approved, boolean resumed, KeyValueStore store, TurnScope scope) {
		List<Message> history = conversation.messages();
		this.scope = scope;
		this.historyVersion = conversation.version();
		this.resumed = resumed;
		this.store = store;
		this.agentName = agentName;
		this.sessionId = sessionId;
		this.state = state;
		this.userId = userId;
		this.history = history;
		this.approved = approved;
		this.messages = new ArrayList<>(history.size() + 6);
		this.messages.addAll(history);
		this.turnStart = history.size();
		this.previousAgent = AgentSwitch.previousAgent(history, agentName);
	}

	/** This run's deadline, cost and log. */
	TurnScope scope() {
		return this.scope;
	}

	/** Set the model, options and answer structure of the turn's model calls. */
	void setup(TurnSetup setup) {
		this.setup = setup;
	}

	TurnSetup setup() {
		if (this.setup == null) {
			throw new IllegalStateException("Turn is not set up");
		}
		return this.setup;
	}

	/**
	 * The options of the next model call: a forced tool choice (required, or a named
	 * tool) holds for the turn's first call only, else every call would call a tool again.
	 */
	ChatOptions nextOptions() {
		ChatOptions options = setup().options();
		ToolChoice choice = options.toolChoice();
		if (this.modelCalls > this.callsAtStart && choice != null
				&& (choice.mode() == ToolChoice.Mode.REQUIRED || choice.mode() == ToolChoice.Mode.TOOL)) {
			return options.mutate().toolChoice(null).build();
		}
		return options;
	}

	/**
	 * Return the version of the stored conversation the turn started from.
	 * @return the version
	 */
	long historyVersion() {
		return this.historyVersion;
	}

	@Override
	public String agentName() {
		return this.agentName;
	}

	@Override
	public String sessionId() {
		return this.sessionId;
	}

	@Override
	public Map<String, Object> state() {
		return this.state;
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

	@Override
	public @Nullable Throwable toolFailure(String toolCallId) {
		Map<String, Throwable> failures = this.toolFailures;
		return (failures != null) ? failures.get(toolCallId) : null;
	}

	/** Remember (or, with null, forget) the exception behind a failed call. */
	void recordToolFailure(String toolCallId, @Nullable Throwable failure) {
		Map<String, Throwable> failures = this.toolFailures;
		if (failure == null) {
			if (failures != null) {
				failures.remove(toolCallId);
			}
			return;
		}
		if (failures == null) {
			synchronized (this) {
				failures = this.toolFailures;
				if (failures == null) {
					failures = new ConcurrentHashMap<>(2);
					this.toolFailures = failures;
				}
			}
		}
		failures.put(toolCallId, failure);
	}

	/** Add the tokens a sub-agent run by one of this turn's tools used; thread-safe. */
	synchronized void addNestedUsage(Usage usage) {
		this.nestedUsage = this.nestedUsage.plus(usage);
	}

	/** The turn's tokens: its model calls and those of the sub-agents its tools ran. */
	Usage usage() {
		Usage nested = this.nestedUsage;
		return nested.isEmpty() ? this.usage : this.usage.plus(nested);
	}

	@Override
	public SessionMemory memory() {
		if (this.memory == null) {
			this.memory = SessionMemory.of(this.store, this.sessionId);
		}
		return this.memory;
	}

	@Override
	public boolean isApproved(String toolCallId) {
		return this.approved.contains(toolCallId);
	}

	@Override
	public boolean isDenied(String toolCallId) {
		Set<String> ids = this.denied;
		return ids != null && ids.contains(toolCallId);
	}

	/** Mark a call of the current response as one the permission policy refuses. */
	synchronized void denied(String toolCallId) {
		Set<String> ids = this.denied;
		if (ids == null) {
			ids = ConcurrentHashMap.newKeySet();
			this.denied = ids;
		}
		ids.add(toolCallId);
	}

	List<Message> messages() {
		return this.messages;
	}

	/** Called after before-agent hooks: the last message is this turn's (possibly edited) input. */
	void markTurnStart() {
		if (this.messages.isEmpty()) {
			throw new IllegalStateException("Middleware removed every message of the conversation");
		}
		this.turnStart = this.messages.size() - 1;
		this.input = this.messages.get(this.turnStart);
	}

	@Override
	public @Nullable String userId() {
		return this.userId;
	}

	/** Set the session's memory, read at turn start, for the system prompt of every model call. */
	void session(SessionContextBlock.Snapshot session) {
		this.session = session;
		this.sessionValues = null;
	}

	SessionContextBlock.Snapshot session() {
		return this.session;
	}

	/**
	 * The session's memory as plain Java values (maps, lists, strings, numbers), for
	 * templates: converted once per turn, not on every model call.
	 */
	Map<String, Object> sessionValues() {
		Map<String, Object> values = this.sessionValues;
		if (values == null) {
			Map<String, Object> converted = new LinkedHashMap<>();
			this.session.values()
				.forEach((key, value) -> converted.put(key, AgentJson.mapper().convertValue(value, Object.class)));
			values = Collections.unmodifiableMap(converted);
			this.sessionValues = values;
		}
		return values;
	}

	@Nullable String instructions() {
		return this.instructions;
	}

	@Nullable Locale locale() {
		return this.locale;
	}

	/**
	 * The next model request: the agent's own system prompt, then what the window selects
	 * of the conversation. The conversation itself is left whole, for the store; the other
	 * layers of the system prompt are added after middleware ({@link SystemPromptLayers}).
	 */
	ChatRequest nextRequest(String agentPrompt, List<ToolSpec> tools, ChatOptions options, ContextWindow window) {
		this.modelCalls++;
		List<Message> conversation = window.select(this.messages, Math.min(this.turnStart, this.messages.size()));
		Message input = turnInput();
		if (this.previousAgent != null && input != null) {
			// on every call of the turn: each request is built anew from the conversation
			conversation = AgentSwitch.remind(conversation, input,
					AgentSwitch.reminder(this.previousAgent, this.agentName));
		}
		String systemPrompt = agentPrompt;
		if (systemPrompt.isEmpty()) {
			return new ChatRequest(conversation, tools, options);
		}
		Message[] prompt = new Message[conversation.size() + 1];
		prompt[0] = new SystemMessage(systemPrompt);
		for (int i = 0; i < conversation.size(); i++) {
			prompt[i + 1] = conversation.get(i);
		}
		return new ChatRequest(List.of(prompt), tools, options);
	}

	/** The turn's input: what a new turn marked, or the first message of a resumed one. */
	private @Nullable Message turnInput() {
		if (this.input != null) {
			return this.input;
		}
		return (this.resumed && this.turnStart < this.messages.size()) ? this.messages.get(this.turnStart) : null;
	}

	/**
	 * Record the model's response, as written by this turn's agent; return its tool calls
	 * (empty when the turn is done).
	 */
	List<ToolCall> accept(ChatResponse response) {
		AssistantMessage message = ToolCallIds.unique(response.message()).withAgent(this.agentName);
		this.messages.add(message);
		this.usage = this.usage.plus(response.usage());
		if (!message.hasToolCalls()) {
			finish(message.text(), AgentResult.Status.COMPLETED);
		}
		return message.toolCalls();
	}

	/**
	 * Add the results in call order, whatever order they finished in. A null result is a
	 * call that waits for a decision.
	 */
	void acceptToolResults(@Nullable ToolResultMessage[] results) {
		for (ToolResultMessage result : results) {
			if (result != null) {
				this.messages.add(result);
			}
		}
	}

	/** Put a previously made call's arguments right after a human edited them. */
	void replaceToolCall(ToolCall edited) {
		TurnToolCalls.replace(this.messages, this.turnStart, edited);
	}

	/** Sort the results that follow the last assistant message into call order. */
	void orderLastToolResults() {
		TurnToolCalls.orderLastResults(this.messages, this.turnStart);
	}

	/** The calls of the last model response that have no result yet. */
	List<ToolCall> unansweredToolCalls() {
		return TurnToolCalls.unanswered(this.messages, this.turnStart);
	}

	/** Orders tool results as their calls stand in the assistant message; others last. */
	static Comparator<Message> inCallOrder(List<ToolCall> calls) {
		return TurnToolCalls.inCallOrder(calls);
	}

	/** Whether the turn ended with the model's answer. */
	boolean isCompleted() {
		return this.status == AgentResult.Status.COMPLETED;
	}

	@Nullable String output() {
		return this.output;
	}

	/** Finish with the structured answer's JSON text as the output. */
	void finishStructured(String json) {
		finish(json, AgentResult.Status.COMPLETED);
	}

	boolean isRepaired() {
		return this.repaired;
	}

	/** Go on once more: the model's answer did not have the structure asked for. */
	void repair(String prompt) {
		this.repaired = true;
		this.output = null;
		this.status = null;
		this.messages.add(new UserMessage(prompt));
	}

	void finishMaxIterations(int maxIterations) {
		finish("Agent '" + this.agentName + "' stopped after " + maxIterations
				+ " model calls without a final answer (max-iterations is " + maxIterations + ")",
				AgentResult.Status.MAX_ITERATIONS_REACHED);
	}

	/**
	 * Finish the turn with the tool results as its answer if every call of the last model
	 * response went to a tool that returns directly, and all of them succeeded. Several
	 * results are joined, in call order, by a blank line.
	 * @param returnsDirectly whether a tool, by name, returns directly
	 * @return the answer, or {@code null} if the turn goes on
	 */
	@Nullable String finishIfReturnsDirectly(Predicate<String> returnsDirectly) {
		int assistantIndex = TurnToolCalls.lastAssistantIndex(this.messages, this.turnStart);
		if (assistantIndex < 0) {
			return null;
		}
		List<ToolCall> calls = ((AssistantMessage) this.messages.get(assistantIndex)).toolCalls();
		if (calls.isEmpty() || !returnsDirectly.test(calls.get(0).name())) {
			// the usual case: the tool does not return directly, nothing to collect
			return null;
		}
		Map<String, ToolResultMessage> results = new HashMap<>();
		for (Message message : this.messages.subList(assistantIndex + 1, this.messages.size())) {
			if (message instanceof ToolResultMessage result) {
				results.put(result.toolCallId(), result);
			}
		}
		StringJoiner output = new StringJoiner("\n\n");
		for (ToolCall call : calls) {
			ToolResultMessage result = results.get(call.id());
			if (!returnsDirectly.test(call.name()) || result == null || result.error()) {
				return null;
			}
			output.add(result.text());
		}
		finish(output.toString(), AgentResult.Status.COMPLETED);
		return output.toString();
	}

	void interrupt(List<PendingToolCall> pending) {
		this.pendingCalls = List.copyOf(pending);
		finish("Waiting for a decision on " + pending.stream().map((call) -> call.name() + " (" + call.id() + ")").toList(),
				AgentResult.Status.INTERRUPTED);
	}

	private void finish(String output, AgentResult.Status status) {
		this.output = output;
		this.status = status;
	}

	boolean isMaxIterations() {
		return this.status == AgentResult.Status.MAX_ITERATIONS_REACHED;
	}

	/**
	 * Drop everything after the turn's input, for another runner to start the turn over
	 * (see {@link FallbackRunner}). Usage and the count of model calls stay: they were spent.
	 */
	void rewind() {
		int keep = Math.min(this.turnStart + 1, this.messages.size());
		this.messages.subList(keep, this.messages.size()).clear();
		this.output = null;
		this.status = null;
		this.pendingCalls = List.of();
		this.repaired = false;
		this.callsAtStart = this.modelCalls;
		Map<String, Throwable> failures = this.toolFailures;
		if (failures != null) {
			failures.clear();
		}
	}

	boolean isFinished() {
		return this.status != null;
	}

	boolean isResumed() {
		return this.resumed;
	}

	boolean isInterrupted() {
		return this.status == AgentResult.Status.INTERRUPTED;
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

	/**
	 * Called after after-agent hooks, which may have rewritten the history before the
	 * turn: find the turn's input again, or treat the whole conversation as the turn.
	 */
	void relocateTurnStart() {
		if (this.input == null || (this.turnStart < this.messages.size() && this.messages.get(this.turnStart) == this.input)) {
			return;
		}
		int index = -1;
		for (int i = 0; i < this.messages.size(); i++) {
			if (this.messages.get(i) == this.input) {
				index = i;
				break;
			}
		}
		this.turnStart = Math.max(index, 0);
	}

	/** The messages of this turn: its input and everything after it. */
	List<Message> turnMessages() {
		return this.messages.subList(Math.min(this.turnStart, this.messages.size()), this.messages.size());
	}

	PendingTurn toPending() {
		Usage usage = usage();
		return new PendingTurn(this.agentName, turnMessages(), this.pendingCalls, this.modelCalls,
				usage.inputTokens(), usage.outputTokens());
	}

	AgentResult result() {
		if (this.output == null || this.status == null) {
			throw new IllegalStateException("Turn is not finished");
		}
		List<Message> turn = turnMessages();
		return new AgentResult(this.sessionId, this.output, this.status, usage(), executions(turn), turn,
				this.pendingCalls);
	}

	/** Pair each tool result of the turn with the call it answers. */
	private static List<ToolExecution> executions(List<Message> turn) {
		List<ToolExecution> executions = new ArrayList<>(2);
		List<ToolCall> calls = List.of();
		for (Message message : turn) {
			if (message instanceof AssistantMessage assistant) {
				calls = assistant.toolCalls();
			}
			else if (message instanceof ToolResultMessage result) {
				for (ToolCall call : calls) {
					if (call.id().equals(result.toolCallId())) {
						executions.add(new ToolExecution(call.id(), call.name(), call.arguments(), result.text(),
								result.error()));
						break;
					}
				}
			}
		}
		return executions;
	}

}
