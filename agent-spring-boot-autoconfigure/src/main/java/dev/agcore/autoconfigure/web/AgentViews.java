package dev.agcore.autoconfigure.web;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import dev.agcore.plan.Step;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shapes of the agent endpoint. Kept apart from the core types so that the HTTP
 * contract changes only on purpose.
 */
final class AgentViews {

	private AgentViews() {
	}

	static ServerSentEvent<Object> event(AgentEvent event) {
		return event(event, false);
	}

	/**
	 * The server-sent event of an agent event.
	 * @param event the event
	 * @param structured whether the turn's answer is JSON to show parsed
	 * @return the server-sent event
	 */
	static ServerSentEvent<Object> event(AgentEvent event, boolean structured) {
		return ServerSentEvent.builder(eventData(event, structured)).event(event.type()).build();
	}

	private static Object eventData(AgentEvent event, boolean structured) {
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

	static Map<String, Object> message(Message message) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("role", message.role().name().toLowerCase(Locale.ROOT));
		view.put("text", message.text());
		if (message instanceof AssistantMessage assistant) {
			if (assistant.agent() != null) {
				// which agent answered: a session may switch agents between turns
				view.put("agent", assistant.agent());
			}
			if (assistant.hasToolCalls()) {
				view.put("toolCalls", assistant.toolCalls()
					.stream()
					.map((call) -> new ToolCallView(call.id(), call.name(), call.arguments()))
					.toList());
			}
		}
		if (message instanceof ToolResultMessage result) {
			view.put("toolCallId", result.toolCallId());
			view.put("toolName", result.toolName());
			view.put("error", result.error());
		}
		return view;
	}

	@JsonIgnoreProperties(ignoreUnknown = true)
	record InvokeRequest(@Nullable String sessionId, @Nullable String message, @Nullable String userId,
			@Nullable JsonNode temperature, @Nullable JsonNode maxTokens, @Nullable JsonNode toolChoice,
			@Nullable JsonNode responseFormat, @Nullable JsonNode responseSchema, @Nullable JsonNode model,
			@Nullable JsonNode media, @Nullable JsonNode instructions, @Nullable JsonNode locale) {

		/** A model option field by name, see {@link RequestOptions}. */
		@Nullable JsonNode option(String name) {
			return switch (name) {
				case "temperature" -> this.temperature;
				case "maxTokens" -> this.maxTokens;
				case "toolChoice" -> this.toolChoice;
				case "responseFormat" -> this.responseFormat;
				case "responseSchema" -> this.responseSchema;
				case "model" -> this.model;
				default -> null;
			};
		}

	}

	record AgentView(String name, String provider, String model, List<String> tools) {

		static AgentView of(Agent agent) {
			return new AgentView(agent.name(), agent.model().providerName(), agent.model().modelName(),
					agent.tools().stream().map(ToolSpec::name).toList());
		}

	}

	// output: the answer's text, or for a completed turn asked for a schema the parsed JSON
	record ResultView(String sessionId, Object output, String status, UsageView usage,
			// left out unless a model of the turn has a configured price
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable BigDecimal cost, List<ToolExecutionView> toolCalls,
			// left out unless the turn waits for approval
			@JsonInclude(JsonInclude.Include.NON_EMPTY) List<PendingToolCallView> pendingToolCalls,
			// left out unless the model reasoned
			@JsonInclude(JsonInclude.Include.NON_EMPTY) String reasoning) {

		static ResultView of(AgentResult result) {
			return of(result, false);
		}

		static ResultView of(AgentResult result, boolean structured) {
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

	record PendingToolCallView(String id, String name, String arguments, String reason) {

		static PendingToolCallView of(PendingTurn.PendingToolCall call) {
			return new PendingToolCallView(call.id(), call.name(), call.arguments(), call.reason());
		}

	}

	// the detail counts are parts of the two totals, shown only when the provider reported them
	record UsageView(long inputTokens, long outputTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long cachedInputTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long cacheWriteTokens,
			@JsonInclude(JsonInclude.Include.NON_DEFAULT) long reasoningTokens) {

		static UsageView of(Usage usage) {
			return new UsageView(usage.inputTokens(), usage.outputTokens(), usage.cachedInputTokens(),
					usage.cacheWriteTokens(), usage.reasoningTokens());
		}

	}

	record ToolExecutionView(String id, String name, String arguments, String result, boolean error) {

		static ToolExecutionView of(ToolExecution execution) {
			return new ToolExecutionView(execution.id(), execution.name(), execution.arguments(), execution.result(),
					execution.error());
		}

	}

	record TextView(String text) {
	}

	record ToolCallView(String id, String name, String arguments) {
	}

	record ToolResultView(String id, String name, String result, boolean error) {
	}

	record RunnerFallbackView(String from, String to, String reason) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	record ToolProgressView(String id, String name, double progress, @Nullable Double total,
			@Nullable String message) {
	}

	record ErrorView(String error, String message) {
	}

	// an event of a sub-agent run by the tool call toolCallId: type and data as a top-level event's
	/**
	 * A plan event: the step that changed (null for the whole plan) and the plan after it.
	 */
	record PlanUpdateView(@Nullable Integer stepIndex, PlanView plan) {

		static PlanUpdateView of(AgentEvent.PlanUpdate update) {
			Plan plan = update.plan();
			return new PlanUpdateView(update.stepIndex(), new PlanView(plan.id(), plan.goal(),
					plan.steps().stream().map(StepView::of).toList()));
		}

	}

	record PlanView(String id, String goal, List<StepView> steps) {
	}

	record StepView(int index, String description, List<Integer> dependsOn, String status, @Nullable String result,
			@Nullable String error) {

		static StepView of(Step step) {
			return new StepView(step.index(), step.description(), step.dependsOn(),
					step.status().name().toLowerCase(Locale.ROOT), step.result(), step.error());
		}

	}

	record SubAgentView(String toolCallId, String agent, String type, Object data) {
	}

}
