package dev.agcore.runtime;

import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * What one turn's model calls use: the model the request chose, the options (the
 * request's over the agent's), and the structure the final answer must have.
 *
 * @param model the model to call
 * @param options the options of every model call of the turn
 * @param structured the structure of the final answer, null for free text
 * @param instructions text appended to the system prompt, empty for none (the schema, for
 * a model without a native structured-output option)
 */
record TurnSetup(ChatModel model, ChatOptions options, @Nullable StructuredOutput<?> structured,
		String instructions) {

}
