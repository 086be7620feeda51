package dev.agcore.runtime;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * How an agent's system prompt is made for each model call: its own prompt (text, or a
 * template rendered per call), the layers around it, and whether the session's memory is
 * shown.
 *
 * @param systemPrompt the agent's prompt as text; used when there is no template
 * @param template the agent's prompt as a template, or {@code null}
 * @param layers the base prompt and environment around it
 * @param sessionContext whether the {@code <session-context>} block is shown
 * @param untrusted how tool results and retrieved documents are marked for the model
 */
record PromptSettings(String systemPrompt, @Nullable SystemPromptTemplate template, SystemPromptLayers layers,
		boolean sessionContext, UntrustedContent untrusted) {

	/** The agent's own layer for a model call of a turn. */
	Mono<String> agentPrompt(Turn turn) {
		return (this.template != null) ? this.template.renderAsync(turn) : Mono.just(this.systemPrompt);
	}

	/** Whether the session's memory must be read at the start of each turn. */
	boolean readsSession() {
		return this.sessionContext || this.template != null;
	}

}
