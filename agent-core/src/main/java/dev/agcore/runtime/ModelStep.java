package dev.agcore.runtime;

import java.util.List;
import java.util.function.UnaryOperator;

import dev.agcore.memory.window.ContextWindow;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.middleware.MiddlewareException;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.observation.AgentObservationDocumentation.Events;
import dev.agcore.tool.ToolSpec;
import reactor.core.publisher.Mono;

/**
 * One model call of a turn, the same for every runner: the request from the conversation,
 * before-model hooks, the system prompt layers, the model wrapped in middleware, the
 * after-model hooks, and the text and usage events of a stream. The runner decides what
 * the call offers and what to do with the response.
 */
final class ModelStep {

	private final String agentName;

	private final PromptSettings prompt;

	private final MiddlewareChain middleware;

	private final ModelInvoker invoker;

	private final ContextWindow window;

	private final boolean bufferText;

	private final boolean observesHooks;

	ModelStep(String agentName, PromptSettings prompt, MiddlewareChain middleware, ModelInvoker invoker,
			ContextWindow window, boolean bufferText, boolean observesHooks) {
		this.observesHooks = observesHooks;
		this.agentName = agentName;
		this.prompt = prompt;
		this.middleware = middleware;
		this.invoker = invoker;
		this.window = window;
		this.bufferText = bufferText;
	}

	/**
	 * Call the model once; the response is not yet recorded in the turn.
	 * @param turn the turn
	 * @param tools the tools the call offers
	 * @param options the call's options
	 * @param instructions text added to the system prompt, empty for none
	 * @param shape changes the request before middleware sees it (e.g. command words removed)
	 * @param listener the turn's listener
	 * @return the response as middleware left it
	 */
	Mono<ChatResponse> call(Turn turn, List<ToolSpec> tools, ChatOptions options, String instructions,
			UnaryOperator<ChatRequest> shape, TurnListener listener) {
		if (this.prompt.template() == null && !this.middleware.hasBeforeModel()) {
			// nothing before the call waits for anything: build the request in place
			return Mono.defer(() -> call(turn, layered(turn,
					shape.apply(turn.nextRequest(this.prompt.systemPrompt(), tools, options, this.window)),
					instructions), listener));
		}
		// the other layers after middleware: a @DynamicPrompt replaces the agent's layer only
		return this.prompt.agentPrompt(turn)
			.map((agentPrompt) -> shape.apply(turn.nextRequest(agentPrompt, tools, options, this.window)))
			.flatMap((request) -> TurnObservations.marked(this.observesHooks, Events.BEFORE_MODEL,
					this.middleware.beforeModel(turn, request)))
			.flatMap((chatRequest) -> call(turn, layered(turn, chatRequest, instructions), listener));
	}

	/**
	 * The request with the system prompt's other layers, after middleware, which sees tool
	 * results as the tools returned them; then tool results and documents marked.
	 */
	private ChatRequest layered(Turn turn, ChatRequest request, String instructions) {
		ChatRequest composed = this.prompt.layers().compose(request, turn, instructions);
		return this.prompt.untrusted().mark(composed, this.prompt.untrusted().holdsBlock(instructions));
	}

	/** How tool results and retrieved documents are marked for the model. */
	UntrustedContent untrusted() {
		return this.prompt.untrusted();
	}

	private Mono<ChatResponse> call(Turn turn, ChatRequest chatRequest, TurnListener listener) {
		// middleware that rewrites model output (PII redaction) must see the text before the caller does
		boolean liveText = listener.streaming() && !this.bufferText;
		// the text of this model response the caller has been shown
		ShownText shown = listener.streaming() ? new ShownText() : null;
		ChatModel model = turn.setup().model();
		ModelCall innermost = TurnLog.models(turn.scope().log(), model, listener.streaming()
				? (req) -> this.invoker.stream(model, req, liveText ? listener : TurnListener.NONE, shown)
				: (req) -> this.invoker.call(model, req));
		Mono<ChatResponse> response = this.middleware.wrapModelCall(turn, innermost)
			.call(chatRequest)
			.switchIfEmpty(Mono.error(() -> new MiddlewareException("A model call of agent '" + this.agentName
					+ "' completed without a response: a wrapModelCall middleware or the model returned an empty Mono")));
		if (this.middleware.hasAfterModel()) {
			response = response.flatMap((received) -> TurnObservations.marked(this.observesHooks, Events.AFTER_MODEL,
					this.middleware.afterModel(turn, chatRequest, received)));
		}
		if (listener == TurnListener.NONE) {
			// nobody listens: no text or usage to tell
			return response;
		}
		return response.doOnNext((adjusted) -> {
			// text not streamed live, or an answer a wrapper put in place of the streamed one
			// (a fallback model, a limit's final answer), is sent whole, after telling the
			// caller to discard what it was shown
			String text = adjusted.message().text();
			if (shown != null && !shown.matches(text)) {
				if (!shown.isEmpty()) {
					listener.onTextReset();
				}
				if (!text.isEmpty()) {
					listener.onText(text);
				}
			}
			if (!adjusted.usage().isEmpty()) {
				listener.onUsage(adjusted.usage());
			}
		});
	}

}
