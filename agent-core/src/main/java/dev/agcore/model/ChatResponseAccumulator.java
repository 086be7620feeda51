package dev.agcore.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.ToolCall;
import org.jspecify.annotations.Nullable;

/**
 * Folds the {@link ChatChunk}s of one stream into the {@link ChatResponse} a plain call
 * would have returned. Tool-call fragments are joined by index, never by id. Not
 * thread-safe: one accumulator per stream.
 */
public final class ChatResponseAccumulator {

	private final StringBuilder text = new StringBuilder();

	private final Map<Integer, PartialToolCall> toolCalls = new TreeMap<>();

	private Usage usage = Usage.EMPTY;

	private @Nullable FinishReason finishReason;

	private String model = "";

	/**
	 * Add one chunk.
	 * @param chunk the chunk
	 * @return this accumulator
	 */
	public ChatResponseAccumulator add(ChatChunk chunk) {
		this.text.append(chunk.textDelta());
		for (ChatChunk.ToolCallDelta delta : chunk.toolCalls()) {
			PartialToolCall partial = this.toolCalls.computeIfAbsent(delta.index(), (i) -> new PartialToolCall());
			if (delta.id() != null && !delta.id().isEmpty()) {
				partial.id = delta.id();
			}
			if (delta.name() != null && !delta.name().isEmpty()) {
				partial.name = delta.name();
			}
			partial.arguments.append(delta.argumentsDelta());
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

	/**
	 * Return whether any text or tool call was received.
	 * @return whether content was received
	 */
	public boolean hasContent() {
		return !this.text.isEmpty() || !this.toolCalls.isEmpty();
	}

	/**
	 * Build the response from what was added so far.
	 * @return the response
	 * @throws ModelResponseException if a tool call never received a name
	 */
	public ChatResponse toResponse() {
		List<ToolCall> calls = new ArrayList<>(this.toolCalls.size());
		for (Map.Entry<Integer, PartialToolCall> entry : this.toolCalls.entrySet()) {
			PartialToolCall partial = entry.getValue();
			if (partial.name == null) {
				throw new ModelResponseException("unknown",
						"Streamed tool call at index " + entry.getKey() + " never received a tool name");
			}
			String id = (partial.id != null) ? partial.id : "call_" + entry.getKey();
			calls.add(new ToolCall(id, partial.name, partial.arguments.toString()));
		}
		FinishReason reason = this.finishReason;
		if (reason == null) {
			reason = calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
		}
		return new ChatResponse(new AssistantMessage(this.text.toString(), calls), this.usage, reason, this.model);
	}

	private static final class PartialToolCall {

		private @Nullable String id;

		private @Nullable String name;

		private final StringBuilder arguments = new StringBuilder();

	}

}
