package dev.agcore.message;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A message produced by the model: text, tool calls, or both; with the model's reasoning
 * kept apart from its text.
 *
 * @param text the answer, empty when the model only called tools
 * @param toolCalls the tool calls the model asked for, in order
 * @param reasoning the model's reasoning blocks, in order; empty for none
 * @param refusal the model's refusal text when it declined to answer, null otherwise
 * @param agent the name of the agent whose turn recorded the message, null when not
 * known (a model's response before the agent records it, a message stored by an earlier
 * release); not sent to models
 */
public record AssistantMessage(String text, List<ToolCall> toolCalls, List<Reasoning> reasoning,
		@Nullable String refusal, @Nullable String agent) implements Message {

	public AssistantMessage(@Nullable String text, List<ToolCall> toolCalls, @Nullable List<Reasoning> reasoning,
			@Nullable String refusal, @Nullable String agent) {
		this.text = (text != null) ? text : "";
		this.toolCalls = List.copyOf(toolCalls);
		this.reasoning = (reasoning != null) ? List.copyOf(reasoning) : List.of();
		this.refusal = (refusal != null && !refusal.isEmpty()) ? refusal : null;
		this.agent = (agent != null && !agent.isEmpty()) ? agent : null;
	}

	/**
	 * Create a message no agent has recorded yet.
	 * @param text the text, null for none
	 * @param toolCalls the tool calls
	 * @param reasoning the reasoning blocks, null for none
	 * @param refusal the refusal text, null for none
	 */
	public AssistantMessage(@Nullable String text, List<ToolCall> toolCalls, @Nullable List<Reasoning> reasoning,
			@Nullable String refusal) {
		this(text, toolCalls, reasoning, refusal, null);
	}

	/**
	 * Create a message without reasoning or refusal.
	 * @param text the text, null for none
	 * @param toolCalls the tool calls
	 */
	public AssistantMessage(@Nullable String text, List<ToolCall> toolCalls) {
		this(text, toolCalls, List.of(), null);
	}

	public static AssistantMessage of(String text) {
		return new AssistantMessage(text, List.of());
	}

	public static AssistantMessage of(List<ToolCall> toolCalls) {
		return new AssistantMessage("", toolCalls);
	}

	public boolean hasToolCalls() {
		return !this.toolCalls.isEmpty();
	}

	public boolean hasReasoning() {
		return !this.reasoning.isEmpty();
	}

	/**
	 * Return the reasoning text of every block, joined by blank lines.
	 * @return the reasoning text, empty for none
	 */
	public String reasoningText() {
		if (this.reasoning.isEmpty()) {
			return "";
		}
		if (this.reasoning.size() == 1) {
			return this.reasoning.get(0).text();
		}
		StringBuilder joined = new StringBuilder();
		for (Reasoning block : this.reasoning) {
			if (!block.text().isEmpty()) {
				joined.append((joined.length() > 0) ? "\n\n" : "").append(block.text());
			}
		}
		return joined.toString();
	}

	/**
	 * Return this message with other reasoning.
	 * @param reasoning the reasoning blocks
	 * @return the message
	 */
	public AssistantMessage withReasoning(List<Reasoning> reasoning) {
		return new AssistantMessage(this.text, this.toolCalls, reasoning, this.refusal, this.agent);
	}

	/**
	 * Return this message with other tool calls, everything else kept.
	 * @param toolCalls the tool calls
	 * @return the message
	 */
	public AssistantMessage withToolCalls(List<ToolCall> toolCalls) {
		return new AssistantMessage(this.text, toolCalls, this.reasoning, this.refusal, this.agent);
	}

	/**
	 * Return this message as recorded by an agent.
	 * @param agent the agent's name, null for none
	 * @return the message
	 */
	public AssistantMessage withAgent(@Nullable String agent) {
		return new AssistantMessage(this.text, this.toolCalls, this.reasoning, this.refusal, agent);
	}

	@Override
	public Role role() {
		return Role.ASSISTANT;
	}

}
