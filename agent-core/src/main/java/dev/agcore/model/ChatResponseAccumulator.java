package dev.agcore.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import org.jspecify.annotations.Nullable;

/**
 * Folds the {@link ChatChunk}s of one stream into the {@link ChatResponse} a plain call
 * would have returned. Tool-call fragments are joined by index, never by id. Not
 * thread-safe: one accumulator per stream.
 * <p>
 * An accumulator lives as long as its stream, so one is held for every streamed model
 * call in flight: what a stream never carries (tool calls, reasoning, a refusal) gets
 * its buffers only when the first such fragment arrives.
 */
public final class ChatResponseAccumulator {

	private final StringBuilder text = new StringBuilder();

	/** The calls in the order they started; null until the first tool-call fragment. */
	private @Nullable List<PartialToolCall> toolCalls;

	/** The call each wire index currently feeds; null until the first tool-call fragment. */
	private @Nullable Map<Integer, PartialToolCall> byIndex;

	/** The reasoning blocks by index, in the order they started; null until the first. */
	private @Nullable Map<Integer, PartialReasoning> reasoning;

	/** The refusal text; null until the first refusal fragment. */
	private @Nullable StringBuilder refusal;

	private Usage usage = Usage.EMPTY;

	private @Nullable FinishReason finishReason;

	private String model = "";

	private final String provider;

	/** Create an accumulator whose errors name no provider. */
	public ChatResponseAccumulator() {
		this("unknown");
	}

	/**
	 * Create an accumulator.
	 * @param provider the provider streaming, named in errors
	 */
	public ChatResponseAccumulator(String provider) {
		this.provider = provider;
	}

	/**
	 * Add one chunk.
	 * @param chunk the chunk
	 * @return this accumulator
	 */
	public ChatResponseAccumulator add(ChatChunk chunk) {
		this.text.append(chunk.textDelta());
		if (!chunk.toolCalls().isEmpty()) {
			addToolCalls(chunk.toolCalls());
		}
		ChatChunk.ReasoningDelta reasoningDelta = chunk.reasoning();
		if (reasoningDelta != null) {
			if (this.reasoning == null) {
				this.reasoning = new LinkedHashMap<>(2);
			}
			PartialReasoning block = this.reasoning.computeIfAbsent(reasoningDelta.index(),
					(index) -> new PartialReasoning());
			block.text.append(reasoningDelta.textDelta());
			if (reasoningDelta.signature() != null) {
				block.signature = reasoningDelta.signature();
			}
			if (reasoningDelta.redactedData() != null) {
				block.redactedData = reasoningDelta.redactedData();
			}
		}
		if (!chunk.refusalDelta().isEmpty()) {
			if (this.refusal == null) {
				this.refusal = new StringBuilder();
			}
			this.refusal.append(chunk.refusalDelta());
		}
		if (chunk.usage() != null) {
			this.usage = chunk.usage();
		}
		if (chunk.finishReason() != null) {
			this.finishReason = chunk.finishReason();
		}
		if (chunk.model() != null && !chunk.model().isEmpty()) {
			this.model = chunk.model();
		}
		return this;
	}

	private void addToolCalls(List<ChatChunk.ToolCallDelta> deltas) {
		if (this.toolCalls == null || this.byIndex == null) {
			this.toolCalls = new ArrayList<>(2);
			this.byIndex = new HashMap<>(4);
		}
		for (ChatChunk.ToolCallDelta delta : deltas) {
			PartialToolCall partial = this.byIndex.get(delta.index());
			String id = (delta.id() != null && !delta.id().isEmpty()) ? delta.id() : null;
			// a new id at a known index is a new call: servers that omit the index send one
			// whole call per chunk, all at the default index 0
			if (partial == null || (id != null && partial.id != null && !partial.id.equals(id))) {
				partial = new PartialToolCall();
				this.toolCalls.add(partial);
				this.byIndex.put(delta.index(), partial);
			}
			if (id != null) {
				partial.id = id;
			}
			if (delta.name() != null && !delta.name().isEmpty()) {
				partial.name = delta.name();
			}
			partial.arguments.append(delta.argumentsDelta());
		}
	}

	/**
	 * Build the response from what was added so far.
	 * @return the response
	 * @throws ModelResponseException if a tool call never received a name
	 */
	public ChatResponse toResponse() {
		List<PartialToolCall> partials = (this.toolCalls != null) ? this.toolCalls : List.of();
		List<ToolCall> calls = new ArrayList<>(partials.size());
		for (int i = 0; i < partials.size(); i++) {
			PartialToolCall partial = partials.get(i);
			if (partial.name == null) {
				throw new ModelResponseException(this.provider,
						"Streamed tool call #" + (i + 1) + " never received a tool name");
			}
			String id = (partial.id != null) ? partial.id : "call_" + i;
			calls.add(new ToolCall(id, partial.name, partial.arguments.toString()));
		}
		FinishReason reason = this.finishReason;
		if (reason == null) {
			reason = calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
		}
		List<Reasoning> blocks = new ArrayList<>((this.reasoning != null) ? this.reasoning.size() : 0);
		if (this.reasoning != null) {
			for (PartialReasoning block : this.reasoning.values()) {
				blocks.add(new Reasoning(block.text.toString(), block.signature, block.redactedData));
			}
		}
		AssistantMessage message = new AssistantMessage(this.text.toString(), calls, blocks,
				(this.refusal != null) ? this.refusal.toString() : null);
		return new ChatResponse(message, this.usage, reason, this.model);
	}

	private static final class PartialToolCall {

		private @Nullable String id;

		private @Nullable String name;

		private final StringBuilder arguments = new StringBuilder();

	}

	private static final class PartialReasoning {

		private final StringBuilder text = new StringBuilder();

		private @Nullable String signature;

		private @Nullable String redactedData;

	}

}
