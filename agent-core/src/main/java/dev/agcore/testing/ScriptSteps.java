package dev.agcore.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.agcore.json.AgentJson;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelTimeoutException;
import dev.agcore.model.Usage;

/**
 * The vocabulary of a script: what a {@link ScriptedChatModel} answers to its next
 * requests, one step per request, in the order the steps were added. Shared by
 * {@link ScriptedChatModel.Builder} and the live {@link ScriptedChatModel.Script} of a
 * model.
 *
 * @param <S> the concrete type, returned by every method for chaining
 */
public abstract class ScriptSteps<S extends ScriptSteps<S>> {

	private final AtomicInteger toolCallIds = new AtomicInteger();

	private Duration nextDelay = Duration.ZERO;

	ScriptSteps() {
	}

	/** Append a step to the script. */
	abstract void add(ScriptStep step);

	@SuppressWarnings("unchecked")
	private S append(ScriptStep step) {
		synchronized (this) {
			add(this.nextDelay.isZero() ? step : step.delayed(this.nextDelay));
			this.nextDelay = Duration.ZERO;
		}
		return (S) this;
	}

	/**
	 * Answer the next request with a final text.
	 * @param text the answer
	 * @return this
	 */
	public S thenReply(String text) {
		return thenRespond(ScriptedChatModel.text(text));
	}

	/**
	 * Answer the next request with reasoning (streamed as reasoning chunks) and a final
	 * text.
	 * @param reasoning the model's thinking
	 * @param text the answer
	 * @return this
	 */
	public S thenReason(String reasoning, String text) {
		AssistantMessage message = new AssistantMessage(text, List.of(), List.of(Reasoning.of(reasoning)), null);
		return thenRespond(new ChatResponse(message, Usage.of(10, Math.max(1, (reasoning.length() + text.length()) / 4)),
				FinishReason.STOP, "scripted"));
	}

	/**
	 * Answer the next request by calling one tool, with an id of the form {@code call_1}.
	 * @param name the tool name
	 * @param arguments the arguments, written as JSON with the keys sorted (the same text
	 * on every run, whatever the map's order)
	 * @return this
	 */
	public S thenCallTool(String name, Map<String, ?> arguments) {
		String json = AgentJson.mapper().writeValueAsString(new TreeMap<>(arguments));
		return thenCallTools(new ToolCall("call_" + this.toolCallIds.incrementAndGet(), name, json));
	}

	/**
	 * Answer the next request by calling the given tools in one response.
	 * @param calls the tool calls
	 * @return this
	 */
	public S thenCallTools(ToolCall... calls) {
		return thenRespond(ScriptedChatModel.toolCalls(calls));
	}

	/**
	 * Answer the next request with a response; its stream is split into word-sized text
	 * chunks and tool-call fragments.
	 * @param response the response
	 * @return this
	 */
	public S thenRespond(ChatResponse response) {
		Objects.requireNonNull(response, "'response' must not be null");
		return append(ScriptStep.answer((request) -> response));
	}

	/**
	 * Answer the next request with a response computed from it.
	 * @param answer the function; may throw to simulate a failure
	 * @return this
	 */
	public S thenAnswer(Function<ChatRequest, ChatResponse> answer) {
		return append(ScriptStep.answer(Objects.requireNonNull(answer, "'answer' must not be null")));
	}

	/**
	 * Stream exactly these chunks to the next request; a call gets what folding them
	 * gives.
	 * @param chunks the chunks, in order
	 * @return this
	 */
	public S thenStream(ChatChunk... chunks) {
		return append(new ScriptStep(Duration.ZERO, null, List.of(chunks), null));
	}

	/**
	 * Fail the next request, as a provider does: with a
	 * {@link dev.agcore.model.ModelException} such as a
	 * {@link dev.agcore.model.ModelServerException} or a
	 * {@link dev.agcore.model.ModelRateLimitException}, for retries and fallbacks to
	 * handle.
	 * @param error the error
	 * @return this
	 */
	public S thenFail(Throwable error) {
		return append(new ScriptStep(Duration.ZERO, null, List.of(), Objects.requireNonNull(error, "'error' must not be null")));
	}

	/**
	 * Stream the given chunks to the next request, then fail, as a connection lost
	 * mid-answer does.
	 * @param error the error after the chunks
	 * @param before the chunks streamed first
	 * @return this
	 */
	public S thenFailMidStream(Throwable error, ChatChunk... before) {
		return append(new ScriptStep(Duration.ZERO, null, List.of(before),
				Objects.requireNonNull(error, "'error' must not be null")));
	}

	/**
	 * Fail the next request with the {@link ModelTimeoutException} a provider raises when
	 * no response arrives in time (retryable). For a model that is really slow, use
	 * {@link #thenWait(Duration)}.
	 * @return this
	 */
	public S thenTimeout() {
		return thenFail(new ModelTimeoutException("scripted", "Scripted timeout: no response from the model", null));
	}

	/**
	 * Wait before answering the next request (the step added next).
	 * @param delay the delay
	 * @return this
	 */
	@SuppressWarnings("unchecked")
	public S thenWait(Duration delay) {
		if (delay.isNegative()) {
			throw new IllegalArgumentException("'delay' must not be negative");
		}
		synchronized (this) {
			this.nextDelay = this.nextDelay.plus(delay);
		}
		return (S) this;
	}

}
