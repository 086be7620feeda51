package dev.agcore.middleware;

import java.util.List;

import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * An ordered list of middleware, applied with the chain rules: {@code before*} in order,
 * {@code after*} in reverse, wrappers nested with the first outermost. Hooks are composed
 * through their reactive forms, so a hook that waits for I/O delays the next one without
 * blocking a thread. Immutable.
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

	/**
	 * Run the {@code beforeAgent} hooks in order, each after the previous one completed.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when every hook is done
	 */
	public Mono<Void> beforeAgent(AgentContext context, List<Message> messages) {
		Mono<Void> hooks = Mono.empty();
		for (AgentMiddleware middleware : this.middlewares) {
			hooks = hooks.then(Mono.defer(() -> middleware.beforeAgentAsync(context, messages)));
		}
		return hooks;
	}

	/**
	 * Run the {@code afterAgent} hooks in reverse order, each after the previous one
	 * completed.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when every hook is done
	 */
	public Mono<Void> afterAgent(AgentContext context, List<Message> messages) {
		Mono<Void> hooks = Mono.empty();
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.middlewares.get(i);
			hooks = hooks.then(Mono.defer(() -> middleware.afterAgentAsync(context, messages)));
		}
		return hooks;
	}

	/**
	 * Pass the request through the {@code beforeModel} hooks in order.
	 * @param context the turn
	 * @param request the request the loop built
	 * @return the request to send
	 */
	public Mono<ChatRequest> beforeModel(AgentContext context, ChatRequest request) {
		Mono<ChatRequest> current = Mono.just(request);
		for (AgentMiddleware middleware : this.middlewares) {
			current = current.flatMap((previous) -> required(middleware.beforeModelAsync(context, previous), middleware,
					"beforeModel"));
		}
		return current;
	}

	/**
	 * Pass the response through the {@code afterModel} hooks in reverse order.
	 * @param context the turn
	 * @param request the request that was sent
	 * @param response the model's response
	 * @return the response to use
	 */
	public Mono<ChatResponse> afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		Mono<ChatResponse> current = Mono.just(response);
		for (int i = this.middlewares.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.middlewares.get(i);
			current = current.flatMap((previous) -> required(middleware.afterModelAsync(context, request, previous),
					middleware, "afterModel"));
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

	private static <T> Mono<T> required(@Nullable Mono<T> result, AgentMiddleware middleware, String hook) {
		if (result == null) {
			return Mono.error(new MiddlewareException("Middleware '" + middleware.name() + "' returned null from " + hook
					+ "Async"));
		}
		// a synchronous hook that returned null gives an empty Mono
		return result.switchIfEmpty(Mono.error(() -> new MiddlewareException(
				"Middleware '" + middleware.name() + "' returned null from " + hook)));
	}

}
