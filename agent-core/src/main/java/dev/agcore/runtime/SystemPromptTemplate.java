package dev.agcore.runtime;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agcore.prompt.PromptTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An agent's system prompt as a template, rendered for every model call with the
 * variables the agent was given, and these, which win over them:
 * <ul>
 * <li>{@code session}: the session's memory, by key (values as JSON types);</li>
 * <li>{@code request}: the caller's state of the request ({@link AgentRequest#state()});</li>
 * <li>{@code agent}, {@code sessionId} and {@code userId} (absent for none).</li>
 * </ul>
 *
 * Variables of {@link SystemPromptVariables} sources come over the agent's own and under
 * these.
 *
 * @param template the template
 * @param variables the agent's own variables, e.g. from configuration
 * @param sources sources of variables computed for every model call
 * @since 0.1.0
 */
public record SystemPromptTemplate(PromptTemplate template, Map<String, Object> variables,
		List<SystemPromptVariables> sources) {

	public SystemPromptTemplate {
		Objects.requireNonNull(template, "'template' must not be null");
		variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
		sources = List.copyOf(sources);
	}

	/**
	 * Create a template prompt without computed variables.
	 * @param template the template
	 * @param variables the agent's own variables
	 */
	public SystemPromptTemplate(PromptTemplate template, Map<String, Object> variables) {
		this(template, variables, List.of());
	}

	/** Render the prompt for a model call of a turn, after asking the sources. */
	Mono<String> renderAsync(Turn turn) {
		if (this.sources.isEmpty()) {
			return Mono.fromCallable(() -> render(turn, Map.of()));
		}
		return Flux.fromIterable(this.sources)
			.concatMap((source) -> source.variables(turn).defaultIfEmpty(Map.of()))
			.collectList()
			.map((computed) -> {
				Map<String, Object> merged = new HashMap<>();
				computed.forEach(merged::putAll);
				return render(turn, merged);
			});
	}

	/** Render the prompt for a model call of a turn. */
	String render(Turn turn, Map<String, Object> computed) {
		Map<String, Object> values = new HashMap<>(this.variables);
		values.putAll(computed);
		values.put("session", turn.sessionValues());
		values.put("request", turn.state());
		values.put("agent", turn.agentName());
		values.put("sessionId", turn.sessionId());
		if (turn.userId() != null) {
			values.put("userId", turn.userId());
		}
		return this.template.render(values);
	}

}
