package dev.agcore.middleware;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;

/**
 * An ordered list of middleware, applied with the chain rules: {@code before*} in order,
 * {@code after*} in reverse, wrappers nested with the first outermost. Immutable.
 */
public final class MiddlewareChain {

	private static final MiddlewareChain EMPTY = new MiddlewareChain(List.of());

	private final List<AgentMiddleware> middlewares;

	private MiddlewareChain(List<AgentMiddleware> middlewares) {
		this.middlewares = middlewares;
	}

	public static MiddlewareChain of(List<? extends AgentMiddleware> middlewares) {
		return middlewares.isEmpty() ? EMPTY : new MiddlewareChain(List.copyOf(middlewares));
	}

	public static MiddlewareChain empty() {
		return EMPTY;
	}

	public List<AgentMiddleware> middlewares() {
		return this.middlewares;
	}

	public boolean isEmpty() {
		return this.middlewares.isEmpty();
	}

	public void beforeAgent(AgentContext context, List<Message> messages) {
		for (AgentMiddleware middleware : this.middlewares) {
			middleware.beforeAgent(context, messages);
		}
	}

	public void afterAgent(AgentContext context, List<Message> messages) {
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			this.middlewares.get(i).afterAgent(context, messages);
		}
	}

	public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		ChatRequest current = request;
		for (AgentMiddleware middleware : this.middlewares) {
			current = requireResult(middleware.beforeModel(context, current), middleware, "beforeModel");
		}
		return current;
	}

	public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		ChatResponse current = response;
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.middlewares.get(i);
			current = requireResult(middleware.afterModel(context, request, current), middleware, "afterModel");
		}
		return current;
	}

	/**
	 * Compose the model-call wrappers around the innermost call, first middleware outermost.
	 * @param context the turn
	 * @param innermost the actual model call
	 * @return the composed call
	 */
	public ModelCall wrapModelCall(AgentContext context, ModelCall innermost) {
		ModelCall call = innermost;
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.middlewares.get(i);
			ModelCall next = call;
			call = (request) -> middleware.wrapModelCall(context, request, next);
		}
		return call;
	}

	/**
	 * Compose the tool-call wrappers around the innermost handler, first middleware
	 * outermost.
	 * @param context the turn
	 * @param innermost the actual tool execution
	 * @return the composed handler
	 */
	public ToolCallHandler wrapToolCall(AgentContext context, ToolCallHandler innermost) {
		ToolCallHandler handler = innermost;
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.middlewares.get(i);
			ToolCallHandler next = handler;
			handler = (call) -> middleware.wrapToolCall(context, call, next);
		}
		return handler;
	}

	private static <T> T requireResult(T result, AgentMiddleware middleware, String hook) {
		if (result == null) {
			throw new MiddlewareException("Middleware '" + middleware.name() + "' returned null from " + hook);
		}
		return result;
	}

}
