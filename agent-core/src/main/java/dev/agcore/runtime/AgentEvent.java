package dev.agcore.runtime;

import java.util.Objects;

import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import org.jspecify.annotations.Nullable;

/**
 * What a streamed turn emits, in order: text deltas as the model writes (and
 * {@link ReasoningDelta}s as it reasons, never part of the text), a
 * {@link ToolCallStarted} and a {@link ToolCallCompleted} per tool call (with
 * {@link ToolProgress} between them from long-running tools, and {@link SubAgentEvent}s
 * from an agent run as a tool), a {@link UsageReported} per model call, and finally
 * exactly one {@link Completed}, {@link Interrupted} or {@link Failed}. A plan's turn adds
 * {@link PlanUpdate}s. A {@link TextReset} tells the caller to discard the text of the current
 * model response it has shown, because another answer replaces it.
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
	 * A piece of the model's reasoning (thinking): from the provider's reasoning stream,
	 * or a {@code <think>} block split out of its text. Never part of the answer; stored
	 * with the assistant message. Not sent when middleware rewrites model output (PII
	 * redaction), as the text then is not streamed either.
	 *
	 * @param text the reasoning text to append
	 */
	record ReasoningDelta(String text) implements AgentEvent {

		@Override
		public String type() {
			return "reasoning";
		}

	}

	/**
	 * Discard the text deltas of the current model response received so far: a middleware
	 * put another answer in place of the one being streamed (a fallback model after the
	 * streamed one failed, a limit's final answer). The replacement follows as
	 * {@link TextDelta}s, so the text after the last reset is the model response's answer.
	 */
	record TextReset() implements AgentEvent {

		@Override
		public String type() {
			return "text_reset";
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
	 * How far a running tool got, as it reported (an MCP server's progress notification,
	 * say). Never sent to the model.
	 *
	 * @param id the call id
	 * @param name the tool name
	 * @param progress how much is done
	 * @param total how much there is to do, or {@code null} when unknown
	 * @param message what the tool is doing, at most {@value #MAX_MESSAGE_LENGTH}
	 * characters, or {@code null}
	 */
	record ToolProgress(String id, String name, double progress, @Nullable Double total,
			@Nullable String message) implements AgentEvent {

		/** The longest progress message passed on; a tool's text is untrusted. */
		public static final int MAX_MESSAGE_LENGTH = 500;

		public ToolProgress {
			Objects.requireNonNull(id, "'id' must not be null");
			Objects.requireNonNull(name, "'name' must not be null");
			if (message != null && message.length() > MAX_MESSAGE_LENGTH) {
				int end = Character.isHighSurrogate(message.charAt(MAX_MESSAGE_LENGTH - 1)) ? MAX_MESSAGE_LENGTH - 1
						: MAX_MESSAGE_LENGTH;
				message = message.substring(0, end);
			}
		}

		@Override
		public String type() {
			return "tool_progress";
		}

	}

	/**
	 * What a sub-agent (an agent run as a tool, see {@link SubAgentTool}) emitted while
	 * its turn ran in its own session: every event of its stream, its own
	 * {@link Completed}, {@link Interrupted} or {@link Failed} included, in order, between
	 * the parent's {@link ToolCallStarted} and {@link ToolCallCompleted} of that call. A
	 * sub-agent's sub-agent nests one level deeper. Never sent to the parent's model.
	 *
	 * @param toolCallId the id of the parent's tool call that runs the sub-agent
	 * @param agent the sub-agent's name
	 * @param event what the sub-agent emitted
	 */
	record SubAgentEvent(String toolCallId, String agent, AgentEvent event) implements AgentEvent {

		public SubAgentEvent {
			Objects.requireNonNull(toolCallId, "'toolCallId' must not be null");
			Objects.requireNonNull(agent, "'agent' must not be null");
			Objects.requireNonNull(event, "'event' must not be null");
		}

		@Override
		public String type() {
			return "subagent";
		}

	}

	/**
	 * The turn starts over with another runner (see {@link Runner}): the react loop failed
	 * or reached its iteration limit and the planner runs instead. A {@link TextReset}
	 * follows, as the text shown of the first attempt is void.
	 *
	 * @param from the runner that gave up, such as {@code react}
	 * @param to the runner that takes over, such as {@code planner}
	 * @param reason {@code error} or {@code max_iterations}
	 */
	record RunnerFallback(String from, String to, String reason) implements AgentEvent {

		@Override
		public String type() {
			return "runner_fallback";
		}

	}

	/**
	 * A plan run by a {@link dev.agcore.plan.task.TaskAgent} changed: it was made or
	 * replanned, or one of its steps started or ended. The events of a step's own turn
	 * (tool calls, usage, text) come between its {@code step_started} and its end.
	 *
	 * @param type {@value #PLAN_CREATED}, {@value #STEP_STARTED}, {@value #STEP_COMPLETED},
	 * {@value #STEP_FAILED}, {@value #STEP_SKIPPED} or {@value #PLAN_REPLANNED}
	 * @param plan the plan after the change
	 * @param stepIndex the step that changed, or {@code null} for the whole plan
	 */
	record PlanUpdate(String type, Plan plan, @Nullable Integer stepIndex) implements AgentEvent {

		/** The plan was made. */
		public static final String PLAN_CREATED = "plan_created";

		/** A step's turn started. */
		public static final String STEP_STARTED = "step_started";

		/** A step's turn completed with an answer. */
		public static final String STEP_COMPLETED = "step_completed";

		/** A step's turn failed or ended without an answer. */
		public static final String STEP_FAILED = "step_failed";

		/** A step will not run. */
		public static final String STEP_SKIPPED = "step_skipped";

		/** The steps after a failure were planned anew. */
		public static final String PLAN_REPLANNED = "plan_replanned";

		public PlanUpdate {
			Objects.requireNonNull(type, "'type' must not be null");
			Objects.requireNonNull(plan, "'plan' must not be null");
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
	 * Equal to another when type and message are; the cause does not take part.
	 */
	final class Failed implements AgentEvent {

		private final String errorType;

		private final String message;

		private final @Nullable Throwable cause;

		/**
		 * Create an event.
		 * @param errorType a short machine-readable kind, e.g. the exception's simple name
		 * @param message what went wrong, safe to show to a user
		 */
		public Failed(String errorType, String message) {
			this(errorType, message, null);
		}

		/**
		 * Create an event that keeps the exception, for callers that classify failures
		 * by type (the HTTP endpoint does).
		 * @param errorType a short machine-readable kind, e.g. the exception's simple name
		 * @param message what went wrong, safe to show to a user
		 * @param cause the exception that failed the turn, or null
		 */
		public Failed(String errorType, String message, @Nullable Throwable cause) {
			this.errorType = Objects.requireNonNull(errorType, "'errorType' must not be null");
			this.message = Objects.requireNonNull(message, "'message' must not be null");
			this.cause = cause;
		}

		public String errorType() {
			return this.errorType;
		}

		public String message() {
			return this.message;
		}

		public @Nullable Throwable cause() {
			return this.cause;
		}

		@Override
		public String type() {
			return "error";
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return this == other || (other instanceof Failed failed && this.errorType.equals(failed.errorType)
					&& this.message.equals(failed.message));
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.errorType, this.message);
		}

		@Override
		public String toString() {
			return "Failed[errorType=" + this.errorType + ", message=" + this.message + "]";
		}

	}

}
