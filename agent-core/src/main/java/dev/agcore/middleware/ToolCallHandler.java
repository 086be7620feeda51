package dev.agcore.middleware;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import reactor.core.publisher.Mono;

/**
 * The next layer of a tool call: the next middleware, or the tool itself. May be called
 * zero, one or several times. Never fails: tool errors arrive as error results.
 */
@FunctionalInterface
public interface ToolCallHandler {

	Mono<ToolResultMessage> call(ToolCall call);

}
