package dev.agcore.runtime;

import dev.agcore.model.Usage;

/**
 * What a streamed turn emits, in order: text deltas as the model writes, a
 * {@link ToolCallStarted} and a {@link ToolCallCompleted} per tool call, a {@link UsageReported}
 * per model call, and finally exactly one {@link Completed}, {@link Interrupted} or
 * {@link Failed}.
 */
public sealed interface AgentEvent {

	/**
	 * Return the event type, used as the server-sent event name.
	 * @return the type
	 */
	String type();

	/**
	 * A piece of the model's answer.
	 *
	 * @param text the text to append
	 */
	record TextDelta(String text) implements AgentEvent {

		@Override
		public String type() {
			return "text";
		}

	}

	/**
	 * The model asked for a tool; it is about to run.
	 *
	 * @param id the call id
	 * @param name the tool name
	 * @param arguments the arguments as the model sent them
	 */
	record ToolCallStarted(String id, String name, String arguments) implements AgentEvent {

		@Override
		public String type() {
			return "tool_call";
		}

	}

	/**
	 * A tool call finished.
	 *
	 * @param id the call id
	 * @param name the tool name
	 * @param result the result, or the error text sent back to the model
	 * @param error whether the call failed
	 */
	record ToolCallCompleted(String id, String name, String result, boolean error) implements AgentEvent {

		@Override
		public String type() {
			return "tool_result";
		}

	}

	/**
	 * Tokens used by one model call.
	 *
	 * @param usage the usage
	 */
	record UsageReported(Usage usage) implements AgentEvent {

		@Override
		public String type() {
			return "usage";
		}

	}

	/**
	 * The turn ended and was stored. Always the last event of a successful stream.
	 *
	 * @param result the same result {@link Agent#invoke} would have returned
	 */
	record Completed(AgentResult result) implements AgentEvent {

		@Override
		public String type() {
			return "completed";
		}

	}

	/**
	 * The turn paused: tool calls wait for a human decision. Always the last event of a
	 * paused stream; resume with {@link Agent#resume} or {@link Agent#resumeStream}.
	 *
	 * @param result the interrupted result, with its pending tool calls
	 */
	record Interrupted(AgentResult result) implements AgentEvent {

		@Override
		public String type() {
			return "interrupt";
		}

	}

	/**
	 * The turn failed; nothing was stored. Always the last event of a failed stream.
	 *
	 * @param errorType a short machine-readable kind, e.g. the exception's simple name
	 * @param message what went wrong, safe to show to a user
	 */
	record Failed(String errorType, String message) implements AgentEvent {

		@Override
		public String type() {
			return "error";
		}

	}

}
