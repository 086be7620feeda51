package dev.agcore.runtime;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agcore.json.AgentJson;
import dev.agcore.prompt.PromptTemplate;
import tools.jackson.databind.JsonNode;

/**
 * An agent's system prompt as a template, rendered for every model call with the
 * variables the agent was given, and these, which win over them:
 * <ul>
 * <li>{@code session}: the session's memory, by key (values as JSON types);</li>
 * <li>{@code request}: the caller's state of the request ({@link AgentRequest#state()});</li>
 * <li>{@code agent}, {@code sessionId} and {@code userId} (absent for none).</li>
 * </ul>
 *
 * @param template the template
 * @param variables the agent's own variables, e.g. from configuration
 * @since 0.1.0
 */
public record SystemPromptTemplate(PromptTemplate template, Map<String, Object> variables) {

	public SystemPromptTemplate {
		Objects.requireNonNull(template, "'template' must not be null");
		variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
	}

	/** Render the prompt for a model call of a turn. */
	String render(Turn turn) {
		Map<String, Object> values = new HashMap<>(this.variables);
		Map<String, Object> session = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> item : turn.session().values().entrySet()) {
			session.put(item.getKey(), AgentJson.mapper().convertValue(item.getValue(), Object.class));
		}
		values.put("session", session);
		values.put("request", turn.state());
		values.put("agent", turn.agentName());
		values.put("sessionId", turn.sessionId());
		if (turn.userId() != null) {
			values.put("userId", turn.userId());
		}
		return this.template.render(values);
	}

}
