package dev.agcore.autoconfigure.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.agcore.autoconfigure.view.AgentEventViews;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shapes of the agent endpoint. Kept apart from the core types so that the HTTP
 * contract changes only on purpose; the shapes of events and results live in
 * {@link AgentEventViews}, shared with background runs.
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
		return ServerSentEvent.builder(AgentEventViews.eventData(event, structured)).event(event.type()).build();
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
					.map((call) -> new AgentEventViews.ToolCallView(call.id(), call.name(), call.arguments()))
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

}
