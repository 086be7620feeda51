package dev.agcore.middleware.builtin;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import io.micrometer.core.instrument.MeterRegistry;
import dev.agcore.tool.ToolCallback;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Decorates a middleware to count its hook invocations in {@code agent.hook.events},
 * tagged {@code agent}, {@code hook} ({@code before_agent}, {@code after_agent},
 * {@code before_model}, {@code after_model}, {@code wrap_model_call},
 * {@code wrap_tool_call}) and {@code middleware} (its {@link AgentMiddleware#name()}).
 * Only the hooks the middleware overrides are counted: the others are no-ops, and
 * counting them would say only how often the loop runs. A hook is counted when it is
 * invoked, whether it then succeeds or fails; a wrapper counts once per call, however
 * often it calls {@code next}.
 * <pre>
 * agent.middleware(ObservedMiddleware.observe(List.of(limits, retry, pii), meterRegistry));
 * </pre>
 */
public final class ObservedMiddleware implements AgentMiddleware {

	private final AgentMiddleware delegate;

	private final MiddlewareMetrics metrics;

	private final Set<Hook> observed;

	/**
	 * Decorate a middleware.
	 * @param delegate the middleware to observe
	 * @param meterRegistry the registry, or null to record nothing
	 */
	public ObservedMiddleware(AgentMiddleware delegate, @Nullable MeterRegistry meterRegistry) {
		this.delegate = Objects.requireNonNull(delegate, "'delegate' must not be null");
		this.metrics = new MiddlewareMetrics(meterRegistry);
		this.observed = overriddenHooks(delegate.getClass());
	}

	/**
	 * Decorate each middleware of a list, keeping the order.
	 * @param middleware the middleware
	 * @param meterRegistry the registry, or null to record nothing
	 * @return the decorated middleware
	 */
	public static List<AgentMiddleware> observe(List<? extends AgentMiddleware> middleware,
			@Nullable MeterRegistry meterRegistry) {
		List<AgentMiddleware> observed = new ArrayList<>(middleware.size());
		for (AgentMiddleware each : middleware) {
			observed.add((each instanceof ObservedMiddleware) ? each : new ObservedMiddleware(each, meterRegistry));
		}
		return List.copyOf(observed);
	}

	/**
	 * Return the decorated middleware.
	 * @return the delegate
	 */
	public AgentMiddleware delegate() {
		return this.delegate;
	}

	@Override
	public void beforeAgent(AgentContext context, List<Message> messages) {
		record(context, Hook.BEFORE_AGENT);
		this.delegate.beforeAgent(context, messages);
	}

	@Override
	public void afterAgent(AgentContext context, List<Message> messages) {
		record(context, Hook.AFTER_AGENT);
		this.delegate.afterAgent(context, messages);
	}

	@Override
	public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
		record(context, Hook.BEFORE_MODEL);
		return this.delegate.beforeModel(context, request);
	}

	@Override
	public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
		record(context, Hook.AFTER_MODEL);
		return this.delegate.afterModel(context, request, response);
	}

	@Override
	public Mono<Void> beforeAgentAsync(AgentContext context, List<Message> messages) {
		record(context, Hook.BEFORE_AGENT);
		return this.delegate.beforeAgentAsync(context, messages);
	}

	@Override
	public Mono<Void> afterAgentAsync(AgentContext context, List<Message> messages) {
		record(context, Hook.AFTER_AGENT);
		return this.delegate.afterAgentAsync(context, messages);
	}

	@Override
	public Mono<ChatRequest> beforeModelAsync(AgentContext context, ChatRequest request) {
		record(context, Hook.BEFORE_MODEL);
		return this.delegate.beforeModelAsync(context, request);
	}

	@Override
	public Mono<ChatResponse> afterModelAsync(AgentContext context, ChatRequest request, ChatResponse response) {
		record(context, Hook.AFTER_MODEL);
		return this.delegate.afterModelAsync(context, request, response);
	}

	@Override
	public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
		record(context, Hook.WRAP_MODEL_CALL);
		return this.delegate.wrapModelCall(context, request, next);
	}

	@Override
	public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
		record(context, Hook.WRAP_TOOL_CALL);
		return this.delegate.wrapToolCall(context, call, next);
	}

	@Override
	public List<ToolCallback> tools() {
		return this.delegate.tools();
	}

	@Override
	public boolean rewritesModelOutput() {
		return this.delegate.rewritesModelOutput();
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	private void record(AgentContext context, Hook hook) {
		if (this.observed.contains(hook)) {
			this.metrics.increment(MiddlewareMetrics.HOOK_EVENTS, "agent", context.agentName(), "hook", hook.tag,
					"middleware", this.delegate.name());
		}
	}

	private static Set<Hook> overriddenHooks(Class<?> type) {
		Set<Hook> hooks = EnumSet.noneOf(Hook.class);
		for (Hook hook : Hook.values()) {
			try {
				// either form of a before/after hook counts
				if (type.getMethod(hook.method, hook.parameters).getDeclaringClass() != AgentMiddleware.class
						|| (hook.reactive && type.getMethod(hook.method + "Async", hook.parameters)
							.getDeclaringClass() != AgentMiddleware.class)) {
					hooks.add(hook);
				}
			}
			catch (NoSuchMethodException ex) {
				throw new IllegalStateException("AgentMiddleware has no method " + hook.method, ex);
			}
		}
		return hooks;
	}

	@Override
	public String toString() {
		return "Observed" + this.delegate;
	}

	private enum Hook {

		BEFORE_AGENT("before_agent", "beforeAgent", true, AgentContext.class, List.class),

		AFTER_AGENT("after_agent", "afterAgent", true, AgentContext.class, List.class),

		BEFORE_MODEL("before_model", "beforeModel", true, AgentContext.class, ChatRequest.class),

		AFTER_MODEL("after_model", "afterModel", true, AgentContext.class, ChatRequest.class, ChatResponse.class),

		WRAP_MODEL_CALL("wrap_model_call", "wrapModelCall", false, AgentContext.class, ChatRequest.class,
				ModelCall.class),

		WRAP_TOOL_CALL("wrap_tool_call", "wrapToolCall", false, AgentContext.class, ToolCall.class,
				ToolCallHandler.class);

		private final String tag;

		private final String method;

		/** Whether the hook also has a reactive form, {@code <method>Async}. */
		private final boolean reactive;

		private final Class<?>[] parameters;

		Hook(String tag, String method, boolean reactive, Class<?>... parameters) {
			this.tag = tag;
			this.method = method;
			this.reactive = reactive;
			this.parameters = parameters;
		}

	}

}
