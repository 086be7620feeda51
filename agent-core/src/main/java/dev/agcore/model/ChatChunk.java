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
 */
public record ChatChunk(String textDelta, List<ToolCallDelta> toolCalls, @Nullable Usage usage,
		@Nullable FinishReason finishReason, @Nullable String model) {

	public ChatChunk {
		textDelta = (textDelta != null) ? textDelta : "";
		toolCalls = List.copyOf(toolCalls);
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

}
