package dev.agcore.middleware;

import java.util.List;
import java.util.concurrent.Callable;

import dev.agcore.context.PropagatedContext;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.tool.ToolCallback;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

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
 * and wrappers nest with the first registered outermost. A hook that throws fails the
 * turn.
 * <p>
 * Each {@code before*}/{@code after*} hook comes in two forms. The synchronous one
 * ({@link #beforeModel}) is the simple way: plain code that may block, such as reading a
 * database. The reactive one ({@link #beforeModelAsync}) is for hooks that do I/O without
 * blocking, such as calling a model; the loop calls only the reactive form, whose default
 * runs the synchronous one. Override one of the two. The wrappers are reactive, so they
 * can retry, delay or switch models without blocking.
 * <p>
 * Threads: no hook ever runs on an event-loop (non-blocking) thread. When the loop
 * reaches a hook on such a thread (a model's response arrives on a Netty event loop, a
 * reactive store answers there), the default reactive form runs the synchronous hook on
 * {@link Schedulers#boundedElastic()}; otherwise it runs on the calling thread, with no
 * thread switch. A reactive hook of your own must not block.
 * <p>
 * Context: a synchronous hook sees the context of the turn's caller on its thread
 * (Spring Security's {@code SecurityContextHolder}, the MDC with the keys {@code agent},
 * {@code session} and {@code turn}, and whatever else {@link PropagatedContext} carries).
 * A reactive hook finds it with {@code PropagatedContext.from(contextView)}.
 */
public interface AgentMiddleware {

	/**
	 * Called once at the start of a turn, on a thread that may block, with the
	 * conversation: the stored history followed by the new user message. Changes to the
	 * list are what the model sees and what is stored; changing the history part replaces
	 * the stored history.
	 * @param context the turn
	 * @param messages the mutable conversation
	 */
	default void beforeAgent(AgentContext context, List<Message> messages) {
	}

	/**
	 * Called once at the end of a successful turn, on a thread that may block, with the
	 * conversation as it will be stored. Changes to the list are stored.
	 * @param context the turn
	 * @param messages the mutable conversation
	 */
	default void afterAgent(AgentContext context, List<Message> messages) {
	}

	/**
	 * Called before each model call, on a thread that may block.
	 * @param context the turn
	 * @param request the request about to be sent
	 * @return the request to send instead, or the same one
	 */
	default ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		return request;
	}

	/**
	 * Called after each model call, on a thread that may block.
	 * @param context the turn
	 * @param request the request that was sent
	 * @param response the response
	 * @return the response to use instead, or the same one
	 */
	default ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		return response;
	}

	/**
	 * The reactive form of {@link #beforeAgent}, which the loop calls. By default runs
	 * {@link #beforeAgent}, off the event loop.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when the hook is done
	 */
	default Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		return offEventLoop(() -> {
			beforeAgent(context, messages);
			return null;
		});
	}

	/**
	 * The reactive form of {@link #afterAgent}, which the loop calls. By default runs
	 * {@link #afterAgent}, off the event loop.
	 * @param context the turn
	 * @param messages the mutable conversation
	 * @return completes when the hook is done
	 */
	default Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
		return offEventLoop(() -> {
			afterAgent(context, messages);
			return null;
		});
	}

	/**
	 * The reactive form of {@link #beforeModel}, which the loop calls. By default runs
	 * {@link #beforeModel}, off the event loop.
	 * @param context the turn
	 * @param request the request about to be sent
	 * @return the request to send instead, or the same one; never empty
	 */
	default Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
		return offEventLoop(() -> beforeModel(context, request));
	}

	/**
	 * The reactive form of {@link #afterModel}, which the loop calls. By default runs
	 * {@link #afterModel}, off the event loop.
	 * @param context the turn
	 * @param request the request that was sent
	 * @param response the response
	 * @return the response to use instead, or the same one; never empty
	 */
	default Mono<ChatResponse> afterModelAsync(AgentContext context, ChatRequest request, ChatResponse response) {
		return offEventLoop(() -> afterModel(context, request, response));
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

	/**
	 * Run synchronous user code where it may block: right here, unless this is an
	 * event-loop thread, so the common case costs no thread switch; on either, with the
	 * turn's caller's context (security context, MDC) set.
	 */
	private static <T> Mono<T> offEventLoop(Callable<@Nullable T> hook) {
		return Mono.deferContextual((view) -> {
			PropagatedContext caller = PropagatedContext.from(view);
			Mono<T> run = Mono.fromCallable(() -> {
				try (PropagatedContext.Scope scope = caller.open()) {
					return hook.call();
				}
			});
			return Schedulers.isInNonBlockingThread() ? run.subscribeOn(Schedulers.boundedElastic()) : run;
		});
	}

}
