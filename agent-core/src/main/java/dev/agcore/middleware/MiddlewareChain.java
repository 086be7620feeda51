package dev.agcore.middleware;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.agcore.context.PropagatedContext;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * An ordered list of middleware, applied with the chain rules: {@code before*} in order,
 * {@code after*} in reverse, wrappers nested with the first outermost. Hooks are composed
 * through their reactive forms, so a hook that waits for I/O delays the next one without
 * blocking a thread. Immutable.
 * <p>
 * What a hook costs is paid only by the middleware that have it: a hook a middleware
 * does not override (neither its synchronous nor its {@code *Async} form) is skipped, and
 * a synchronous hook called off an event loop runs in place, with the caller's context
 * open, as its {@code *Async} default would run it, but without the operators around it.
 */
public final class MiddlewareChain {

	private static final MiddlewareChain EMPTY = new MiddlewareChain(List.of());

	private final List<AgentMiddleware> middlewares;

	private final Hook[] beforeAgent;

	/** In the order they run: reverse. */
	private final Hook[] afterAgent;

	private final Hook[] beforeModel;

	/** In the order they run: reverse. */
	private final Hook[] afterModel;

	private final List<AgentMiddleware> modelWrappers;

	private final List<AgentMiddleware> toolWrappers;

	private MiddlewareChain(List<AgentMiddleware> middlewares) {
		this.middlewares = middlewares;
		List<AgentMiddleware> reversed = new ArrayList<>(middlewares);
		Collections.reverse(reversed);
		this.beforeAgent = Hook.of(middlewares, "beforeAgent", AgentContext.class, List.class);
		this.afterAgent = Hook.of(reversed, "afterAgent", AgentContext.class, List.class);
		this.beforeModel = Hook.of(middlewares, "beforeModel", AgentContext.class, ChatRequest.class);
		this.afterModel = Hook.of(reversed, "afterModel", AgentContext.class, ChatRequest.class, ChatResponse.class);
		this.modelWrappers = Hook.overriding(middlewares, "wrapModelCall", AgentContext.class, ChatRequest.class,
				ModelCall.class);
		this.toolWrappers = Hook.overriding(middlewares, "wrapToolCall", AgentContext.class, ToolCall.class,
				ToolCallHandler.class);
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
	 * Return whether any middleware has a {@code beforeAgent} hook.
	 * @return whether {@link #beforeAgent} does anything
	 */
	public boolean hasBeforeAgent() {
		return this.beforeAgent.length > 0;
	}

	/**
	 * Return whether any middleware has an {@code afterAgent} hook.
	 * @return whether {@link #afterAgent} does anything
	 */
	public boolean hasAfterAgent() {
		return this.afterAgent.length > 0;
	}

	/**
	 * Return whether any middleware has a {@code beforeModel} hook.
	 * @return whether {@link #beforeModel} does anything
	 */
	public boolean hasBeforeModel() {
		return this.beforeModel.length > 0;
	}

	/**
	 * Return whether any middleware has an {@code afterModel} hook.
	 * @return whether {@link #afterModel} does anything
	 */
	public boolean hasAfterModel() {
		return this.afterModel.length > 0;
	}

	/**
	 * Run the {@code beforeAgent} hooks in order, each after the previous one completed.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when every hook is done
	 */
	public Mono<Void> beforeAgent(AgentContext context, List<Message> messages) {
		return agentHooks(this.beforeAgent, context, messages);
	}

	/**
	 * Run the {@code afterAgent} hooks in reverse order, each after the previous one
	 * completed.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when every hook is done
	 */
	public Mono<Void> afterAgent(AgentContext context, List<Message> messages) {
		return agentHooks(this.afterAgent, context, messages);
	}

	private static Mono<Void> agentHooks(Hook[] hooks, AgentContext context, List<Message> messages) {
		if (hooks.length == 0) {
			return Mono.empty();
		}
		return Mono.deferContextual((view) -> agentHooks(hooks, 0, context, messages, view));
	}

	private static Mono<Void> agentHooks(Hook[] hooks, int from, AgentContext context, List<Message> messages,
			ContextView view) {
		for (int i = from; i < hooks.length; i++) {
			Hook hook = hooks[i];
			AgentMiddleware middleware = hook.middleware();
			if (hook.runsInPlace()) {
				try (PropagatedContext.Scope scope = PropagatedContext.from(view).open()) {
					if (hook.after()) {
						middleware.afterAgent(context, messages);
					}
					else {
						middleware.beforeAgent(context, messages);
					}
				}
				continue;
			}
			int next = i + 1;
			Mono<Void> async = hook.after() ? middleware.afterAgentAsync(context, messages)
					: middleware.beforeAgentAsync(context, messages);
			return required(async, middleware, hook.after() ? "afterAgent" : "beforeAgent", true)
				.then(Mono.defer(() -> agentHooks(hooks, next, context, messages, view)));
		}
		return Mono.empty();
	}

	/**
	 * Pass the request through the {@code beforeModel} hooks in order.
	 * @param context the turn
	 * @param request the request the loop built
	 * @return the request to send
	 */
	public Mono<ChatRequest> beforeModel(AgentContext context, ChatRequest request) {
		if (this.beforeModel.length == 0) {
			return Mono.just(request);
		}
		return Mono.deferContextual((view) -> beforeModel(0, context, request, view));
	}

	private Mono<ChatRequest> beforeModel(int from, AgentContext context, ChatRequest request, ContextView view) {
		ChatRequest current = request;
		for (int i = from; i < this.beforeModel.length; i++) {
			Hook hook = this.beforeModel[i];
			AgentMiddleware middleware = hook.middleware();
			if (hook.runsInPlace()) {
				try (PropagatedContext.Scope scope = PropagatedContext.from(view).open()) {
					current = middleware.beforeModel(context, current);
				}
				if (current == null) {
					return Mono.error(nullFrom(middleware, "beforeModel"));
				}
				continue;
			}
			int next = i + 1;
			return required(middleware.beforeModelAsync(context, current), middleware, "beforeModel", false)
				.flatMap((changed) -> beforeModel(next, context, changed, view));
		}
		return Mono.just(current);
	}

	/**
	 * Pass the response through the {@code afterModel} hooks in reverse order.
	 * @param context the turn
	 * @param request the request that was sent
	 * @param response the model's response
	 * @return the response to use
	 */
	public Mono<ChatResponse> afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		if (this.afterModel.length == 0) {
			return Mono.just(response);
		}
		return Mono.deferContextual((view) -> afterModel(0, context, request, response, view));
	}

	private Mono<ChatResponse> afterModel(int from, AgentContext context, ChatRequest request, ChatResponse response,
			ContextView view) {
		ChatResponse current = response;
		for (int i = from; i < this.afterModel.length; i++) {
			Hook hook = this.afterModel[i];
			AgentMiddleware middleware = hook.middleware();
			if (hook.runsInPlace()) {
				try (PropagatedContext.Scope scope = PropagatedContext.from(view).open()) {
					current = middleware.afterModel(context, request, current);
				}
				if (current == null) {
					return Mono.error(nullFrom(middleware, "afterModel"));
				}
				continue;
			}
			int next = i + 1;
			return required(middleware.afterModelAsync(context, request, current), middleware, "afterModel", false)
				.flatMap((changed) -> afterModel(next, context, request, changed, view));
		}
		return Mono.just(current);
	}

	/**
	 * Compose the model-call wrappers around the innermost call, first middleware outermost.
	 * @param context the turn
	 * @param innermost the actual model call
	 * @return the composed call
	 */
	public ModelCall wrapModelCall(AgentContext context, ModelCall innermost) {
		ModelCall call = innermost;
		for (int i = this.modelWrappers.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.modelWrappers.get(i);
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
		for (int i = this.toolWrappers.size() - 1; i >= 0; i--) {
			AgentMiddleware middleware = this.toolWrappers.get(i);
			ToolCallHandler next = handler;
			handler = (call) -> middleware.wrapToolCall(context, call, next);
		}
		return handler;
	}

	private static <T> Mono<T> required(@Nullable Mono<T> result, AgentMiddleware middleware, String hook,
			boolean mayBeEmpty) {
		if (result == null) {
			return Mono.error(new MiddlewareException("Middleware '" + middleware.name() + "' returned null from " + hook
					+ "Async"));
		}
		// a synchronous hook that returned null gives an empty Mono
		return mayBeEmpty ? result : result.switchIfEmpty(Mono.error(() -> nullFrom(middleware, hook)));
	}

	private static MiddlewareException nullFrom(AgentMiddleware middleware, String hook) {
		return new MiddlewareException("Middleware '" + middleware.name() + "' returned null from " + hook);
	}

	/**
	 * One middleware's hook: whether it overrides the synchronous form only (then, off an
	 * event loop, it runs in place), and whether it is an after-hook.
	 */
	private record Hook(AgentMiddleware middleware, boolean synchronousOnly, boolean after) {

		/** Whether to call the synchronous form here rather than compose the reactive one. */
		boolean runsInPlace() {
			// the *Async default moves a synchronous hook off an event loop: keep that
			return this.synchronousOnly && !Schedulers.isInNonBlockingThread();
		}

		static Hook[] of(List<AgentMiddleware> middlewares, String name, Class<?>... parameters) {
			List<Hook> hooks = new ArrayList<>(middlewares.size());
			for (AgentMiddleware middleware : middlewares) {
				boolean sync = overrides(middleware, name, parameters);
				boolean async = overrides(middleware, name + "Async", parameters);
				if (sync || async) {
					hooks.add(new Hook(middleware, !async, name.startsWith("after")));
				}
			}
			return hooks.toArray(Hook[]::new);
		}

		static List<AgentMiddleware> overriding(List<AgentMiddleware> middlewares, String name,
				Class<?>... parameters) {
			return middlewares.stream().filter((middleware) -> overrides(middleware, name, parameters)).toList();
		}

		/**
		 * Whether the middleware's class declares the method itself, or inherits it from
		 * anything but {@link AgentMiddleware}'s default. A proxy counts as overriding.
		 */
		private static boolean overrides(AgentMiddleware middleware, String name, Class<?>... parameters) {
			try {
				return middleware.getClass().getMethod(name, parameters).getDeclaringClass() != AgentMiddleware.class;
			}
			catch (NoSuchMethodException ex) {
				// every hook is a public method of the interface: cannot happen; be safe
				return true;
			}
		}

	}

}
