package dev.agcore.model;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One piece of a streamed response. Any component may be absent: a chunk can carry only
 * text, only tool-call fragments, only usage (the last chunk of an OpenAI stream with
 * {@code include_usage}), or only a finish reason.
 *
 * @param textDelta text to append, empty for none
 * @param toolCalls fragments of tool calls, to be assembled by index
 * @param usage usage, when the server reports it in this chunk
 * @param finishReason finish reason, when the model has stopped
 * @param model the model that answered, when reported
 * @param reasoning a piece of the model's reasoning, when this chunk carries one
 * @param refusalDelta refusal text to append, empty for none
 */
public record ChatChunk(String textDelta, List<ToolCallDelta> toolCalls, @Nullable Usage usage,
		@Nullable FinishReason finishReason, @Nullable String model, @Nullable ReasoningDelta reasoning,
		String refusalDelta) {

	public ChatChunk {
		textDelta = (textDelta != null) ? textDelta : "";
		toolCalls = List.copyOf(toolCalls);
		refusalDelta = (refusalDelta != null) ? refusalDelta : "";
	}

	/**
	 * Create a chunk without reasoning or refusal.
	 * @param textDelta text to append
	 * @param toolCalls tool-call fragments
	 * @param usage usage, may be null
	 * @param finishReason finish reason, may be null
	 * @param model the model, may be null
	 */
	public ChatChunk(String textDelta, List<ToolCallDelta> toolCalls, @Nullable Usage usage,
			@Nullable FinishReason finishReason, @Nullable String model) {
		this(textDelta, toolCalls, usage, finishReason, model, null, "");
	}

	/**
	 * A chunk carrying only reasoning text.
	 * @param index the reasoning block the text belongs to
	 * @param delta the text to append
	 * @return the chunk
	 */
	public static ChatChunk reasoning(int index, String delta) {
		return new ChatChunk("", List.of(), null, null, null, new ReasoningDelta(index, delta, null, null), "");
	}

	public static ChatChunk text(String delta) {
		return new ChatChunk(delta, List.of(), null, null, null);
	}

	/**
	 * A fragment of one tool call in a stream. The first fragment of a call usually carries
	 * its id and name; later ones carry only more argument text. Fragments of the same call
	 * share an index, which is the only reliable key (some servers send the id only once).
	 *
	 * @param index position of the call in the assistant message
	 * @param id the call id, when this fragment carries it
	 * @param name the tool name, when this fragment carries it
	 * @param argumentsDelta argument JSON text to append, empty for none
	 */
	public record ToolCallDelta(int index, @Nullable String id, @Nullable String name, String argumentsDelta) {

		public ToolCallDelta {
			argumentsDelta = (argumentsDelta != null) ? argumentsDelta : "";
		}

	}

	/**
	 * A piece of one reasoning block in a stream. Pieces of the same block share an index;
	 * a signature or redacted data usually arrives last, on its own.
	 *
	 * @param index the reasoning block, counted from 0 in the order blocks start
	 * @param textDelta reasoning text to append, empty for none
	 * @param signature the block's signature, when this piece carries it
	 * @param redactedData the block's encrypted form when the provider withheld its text
	 */
	public record ReasoningDelta(int index, String textDelta, @Nullable String signature,
			@Nullable String redactedData) {

		public ReasoningDelta {
			textDelta = (textDelta != null) ? textDelta : "";
		}

	}

}
