package dev.agcore.runtime;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ToolChoice;
import reactor.core.publisher.Mono;

/**
 * The last model call of the runners without a loop (llm, retrieval QA, planner): the
 * answer, never a tool call, checked against the structure asked for.
 */
final class FinalAnswers {

	private FinalAnswers() {
	}

	/**
	 * The options of an answer call: the turn's, with tool choice none, since an answer
	 * call never runs tools.
	 */
	static ChatOptions answerOptions(Turn turn) {
		return turn.setup().options().mutate().toolChoice(ToolChoice.NONE).build();
	}

	/**
	 * The options of a call that offers no tools at all: no tool choice, which some
	 * providers reject without tools.
	 */
	static ChatOptions noToolOptions(Turn turn) {
		ChatOptions options = turn.setup().options();
		return (options.toolChoice() != null) ? options.mutate().toolChoice(null).build() : options;
	}

	/** The response without tool calls: a model that calls tools where none may run is not obeyed. */
	static ChatResponse withoutToolCalls(ChatResponse response) {
		AssistantMessage message = response.message();
		if (!message.hasToolCalls()) {
			return response;
		}
		return new ChatResponse(
				new AssistantMessage(message.text(), List.of(), message.reasoning(), message.refusal()),
				response.usage(), response.finishReason(), response.model());
	}

	/**
	 * Record the answer and finish the turn with it; an answer that must have a structure
	 * and has not fails the turn (these runners make no extra call to repair it).
	 */
	static Mono<Void> accept(Turn turn, ChatResponse response) {
		turn.accept(withoutToolCalls(response));
		StructuredOutput<?> structured = turn.setup().structured();
		String answer = turn.output();
		if (structured == null || answer == null) {
			return Mono.empty();
		}
		String problem = structured.accept(answer);
		if (problem != null) {
			return Mono.error(new StructuredOutputException(turn.agentName(), problem, answer));
		}
		turn.finishStructured(structured.json());
		return Mono.empty();
	}

}
