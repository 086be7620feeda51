package dev.agcore.autoconfigure.view;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.PendingTurn;
import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import dev.agcore.plan.Step;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The JSON shapes of agent events and results, as the agent endpoint streams and answers
 * them, shared by the endpoint and by background runs, whose stored events carry the
 * same data. Kept apart from the core types so that the HTTP contract changes only on
 * purpose.
 *
 * @since 0.1.0
 */
public final class AgentEventViews {

	private AgentEventViews() {
	}

	/**
	 * The data of an agent event's server-sent event, as the agent endpoint streams it.
	 * @param event the event
	 * @param structured whether the turn's answer is JSON to show parsed
	 * @return the data, to write as JSON
	 */
	public static Object eventData(AgentEvent event, boolean structured) {
		if (event instanceof AgentEvent.TextDelta text) {
			return new TextView(text.text());
		}
		if (event instanceof AgentEvent.ReasoningDelta reasoning) {
			return new TextView(reasoning.text());
		}
		if (event instanceof AgentEvent.TextReset) {
			return Map.of();
		}
		if (event instanceof AgentEvent.ToolCallStarted started) {
			return new ToolCallView(started.id(), started.name(), started.arguments());
		}
		if (event instanceof AgentEvent.ToolCallCompleted completed) {
			return new ToolResultView(completed.id(), completed.name(), completed.result(), completed.error());
		}
		if (event instanceof AgentEvent.RunnerFallback fallback) {
			return new RunnerFallbackView(fallback.from(), fallback.to(), fallback.reason());
		}
		if (event instanceof AgentEvent.ToolProgress progress) {
			return new ToolProgressView(progress.id(), progress.name(), progress.progress(), progress.total(),
					progress.message());
		}
		if (event instanceof AgentEvent.SubAgentEvent nested) {
			// the sub-agent's own event, shaped as it would be at the top of a stream
			return new SubAgentView(nested.toolCallId(), nested.agent(), nested.event().type(),
					eventData(nested.event(), false));
		}
		if (event instanceof AgentEvent.UsageReported usage) {
			return UsageView.of(usage.usage());
		}
		if (event instanceof AgentEvent.PlanUpdate update) {
			return PlanUpdateView.of(update);
		}
		if (event instanceof AgentEvent.Completed completed) {
			return ResultView.of(completed.result(), structured);
		}
		if (event instanceof AgentEvent.Interrupted interrupted) {
			return ResultView.of(interrupted.result());
		}
		if (event instanceof AgentEvent.Failed failed) {
			return new ErrorView(failed.errorType(), failed.message());
		}
		// AgentEvent is sealed, but a switch over its types needs Java 21: a new type lands here
		throw new IllegalArgumentException("Unknown event type " + event.getClass().getName());
	}

	// output: the answer's text, or for a completed turn asked for a schema the parsed JSON
	public record ResultView(String sessionId, Object output, String status, UsageView usage,
			// left out unless a model of the turn has a configured price
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable BigDecimal cost, List<ToolExecutionView> toolCalls,
			// left out unless the turn waits for approval
			@JsonInclude(JsonInclude.Include.NON_EMPTY) List<PendingToolCallView> pendingToolCalls,
			// left out unless the model reasoned
			@JsonInclude(JsonInclude.Include.NON_EMPTY) String reasoning) {

		public static ResultView of(AgentResult result) {
			return of(result, false);
		}

		public static ResultView of(AgentResult result, boolean structured) {
			return new ResultView(result.sessionId(), output(result, structured),
					result.status().name().toLowerCase(Locale.ROOT), UsageView.of(result.usage()), result.cost(),
					result.toolExecutions().stream().map(ToolExecutionView::of).toList(),
					result.pendingToolCalls().stream().map(PendingToolCallView::of).toList(), result.reasoning());
		}

		private static Object output(AgentResult result, boolean structured) {
			if (!structured || !result.isCompleted()) {
				return result.output();
			}
			try {
				// the agent checked it is JSON before completing the turn
				return AgentJson.mapper().readTree(result.output());
			}
			catch (JacksonException ex) {
				return result.output();
			}
		}

	}

	public record PendingToolCallView(String id, String name, String arguments, String reason) {

		public static PendingToolCallView of(PendingTurn.PendingToolCall call) {
			return new PendingToolCallView(call.id(), call.name(), call.arguments(), call.reason());
		}

	}

	// the detail counts are parts of the two totals, shown only when the provider reported them
	public record UsageView(long inputTokens, long outputTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long cachedInputTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long cacheWriteTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long reasoningTokens) {

		public static UsageView of(Usage usage) {
			return new UsageView(usage.inputTokens(), usage.outputTokens(), usage.cachedInputTokens(),
					usage.cacheWriteTokens(), usage.reasoningTokens());
		}

	}

	public record ToolExecutionView(String id, String name, String arguments, String result, boolean error) {

		public static ToolExecutionView of(ToolExecution execution) {
			return new ToolExecutionView(execution.id(), execution.name(), execution.arguments(), execution.result(),
					execution.error());
		}

	}

	public record TextView(String text) {
	}

	public record ToolCallView(String id, String name, String arguments) {
	}

	public record ToolResultView(String id, String name, String result, boolean error) {
	}

	public record RunnerFallbackView(String from, String to, String reason) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ToolProgressView(String id, String name, double progress, @Nullable Double total,
			@Nullable String message) {
	}

	public record ErrorView(String error, String message) {
	}

	// an event of a sub-agent run by the tool call toolCallId: type and data as a top-level event's
	public record PlanUpdateView(@Nullable Integer stepIndex, PlanView plan) {

		static PlanUpdateView of(AgentEvent.PlanUpdate update) {
			Plan plan = update.plan();
			return new PlanUpdateView(update.stepIndex(), new PlanView(plan.id(), plan.goal(),
					plan.steps().stream().map(StepView::of).toList()));
		}

	}

	public record PlanView(String id, String goal, List<StepView> steps) {
	}

	public record StepView(int index, String description, List<Integer> dependsOn, String status,
			@Nullable String result, @Nullable String error) {

		static StepView of(Step step) {
			return new StepView(step.index(), step.description(), step.dependsOn(),
					step.status().name().toLowerCase(Locale.ROOT), step.result(), step.error());
		}

	}

	public record SubAgentView(String toolCallId, String agent, String type, Object data) {
	}

}
