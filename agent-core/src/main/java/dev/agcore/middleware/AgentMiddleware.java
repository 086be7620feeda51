package dev.agcore.middleware;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.tool.ToolCallback;
import reactor.core.publisher.Mono;

/**
 * Intercepts an agent's lifecycle. Every method has a no-op default: override only the
 * hooks you need. Implementations are shared by all turns and must be thread-safe.
 * <pre>
 * beforeAgent(messages)
 *   loop {
 *     beforeModel(request) -&gt; wrapModelCall(request, next) -&gt; afterModel(request, response)
 *     for each tool call: wrapToolCall(call, next)
 *   }
 * afterAgent(messages)
 * </pre>
 * {@code before*} hooks run in registration order, {@code after*} hooks in reverse order,
 * and wrappers nest with the first registered outermost. The hooks are synchronous, for
 * simple code; the wrappers are reactive, so they can retry, delay or switch models
 * without blocking. A hook that throws fails the turn.
 */
public interface AgentMiddleware {

	/**
	 * Called once at the start of a turn with the conversation: the stored history
	 * followed by the new user message. Changes to the list are what the model sees and
	 * what is stored; changing the history part replaces the stored history.
	 * @param context the turn
	 * @param messages the mutable conversation
	 */
	default void beforeAgent(AgentContext context, List<Message> messages) {
	}

	/**
	 * Called once at the end of a successful turn with the conversation as it will be
	 * stored. Changes to the list are stored.
	 * @param context the turn
	 * @param messages the mutable conversation
	 */
	default void afterAgent(AgentContext context, List<Message> messages) {
	}

	/**
	 * Called before each model call.
	 * @param context the turn
	 * @param request the request about to be sent
	 * @return the request to send instead, or the same one
	 */
	default ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		return request;
	}

	/**
	 * Called after each model call.
	 * @param context the turn
	 * @param request the request that was sent
	 * @param response the response
	 * @return the response to use instead, or the same one
	 */
	default ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		return response;
	}

	/**
	 * Wrap a model call.
	 * @param context the turn
	 * @param request the request
	 * @param next the next layer
	 * @return the response
	 */
	default Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		return next.call(request);
	}

	/**
	 * Wrap a tool call.
	 * @param context the turn
	 * @param call the tool call
	 * @param next the next layer
	 * @return the result
	 */
	default Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		return next.call(call);
	}

	/**
	 * Return tools this middleware gives the agent, such as a to-do list's
	 * {@code write_todos}. They join the agent's own tools.
	 * @return the tools, empty by default
	 */
	default List<ToolCallback> tools() {
		return List.of();
	}

	/**
	 * Return whether {@link #afterModel} may change the text of a response. When any
	 * middleware of an agent says so, a streamed turn sends each model answer as one text
	 * event after the hooks ran, instead of live deltas, so nothing they would change
	 * (such as personal data) reaches the caller first.
	 * @return whether model output is rewritten
	 */
	default boolean rewritesModelOutput() {
		return false;
	}

	/**
	 * Return the name used in metrics and error messages.
	 * @return the name
	 */
	default String name() {
		return getClass().getSimpleName();
	}

}
