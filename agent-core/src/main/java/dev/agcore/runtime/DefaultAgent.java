package dev.agcore.runtime;

import java.util.List;

import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.middleware.ModelCall;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

/**
 * The agent loop: call the model; while it asks for tools, run them and call it again;
 * then store the turn. {@link #invoke} and {@link #stream} run the very same loop; the
 * stream only listens to it, so both produce the same conversation.
 */
final class DefaultAgent implements Agent {

	private final String name;

	private final ChatModel model;

	private final String systemPrompt;

	private final ToolRunner toolRunner;

	private final int maxIterations;

	private final ChatOptions options;

	private final ConversationStore store;

	private final MiddlewareChain middleware;

	private final AgentMetrics metrics;

	private final String requestModel;

	DefaultAgent(String name, ChatModel model, String systemPrompt, ToolRunner toolRunner, int maxIterations,
			ChatOptions options, ConversationStore store, MiddlewareChain middleware, AgentMetrics metrics) {
		this.name = name;
		this.model = model;
		this.systemPrompt = systemPrompt;
		this.toolRunner = toolRunner;
		this.maxIterations = maxIterations;
		this.options = options;
		this.store = store;
		this.middleware = middleware;
		this.metrics = metrics;
		this.requestModel = (options.model() != null) ? options.model() : model.modelName();
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public ChatModel model() {
		return this.model;
	}

	@Override
	public String systemPrompt() {
		return this.systemPrompt;
	}

	@Override
	public List<ToolSpec> tools() {
		return this.toolRunner.specs();
	}

	@Override
	public int maxIterations() {
		return this.maxIterations;
	}

	MiddlewareChain middleware() {
		return this.middleware;
	}

	@Override
	public Mono<AgentResult> invoke(AgentRequest request) {
		return run(request, TurnListener.NONE);
	}

	@Override
	public Flux<AgentEvent> stream(AgentRequest request) {
		return Flux.create((sink) -> {
			Disposable turn = run(request, new EventEmitter(sink)).subscribe(
					(result) -> sink.next(new AgentEvent.Completed(result)), (ex) -> {
						sink.next(failed(ex));
						sink.complete();
					}, sink::complete);
			sink.onDispose(turn);
		});
	}

	private Mono<AgentResult> run(AgentRequest request, TurnListener listener) {
		return this.store.load(request.sessionId()).flatMap((history) -> {
			Turn turn = new Turn(this.name, request, history);
			this.middleware.beforeAgent(turn, turn.messages());
			turn.markTurnStart();
			return step(turn, listener).then(Mono.defer(() -> finish(turn)));
		});
	}

	private Mono<Void> step(Turn turn, TurnListener listener) {
		if (turn.modelCalls() >= this.maxIterations) {
			turn.finishMaxIterations(this.maxIterations);
			return Mono.empty();
		}
		ChatRequest chatRequest = this.middleware.beforeModel(turn,
				turn.nextRequest(this.systemPrompt, this.toolRunner.specs(), this.options));
		ModelCall innermost = listener.streaming() ? (req) -> streamModel(req, listener) : this::callModel;
		ModelCall modelCall = this.middleware.isEmpty() ? innermost : this.middleware.wrapModelCall(turn, innermost);
		return modelCall.call(chatRequest).flatMap((response) -> {
			ChatResponse adjusted = this.middleware.afterModel(turn, chatRequest, response);
			if (!adjusted.usage().isEmpty()) {
				listener.onUsage(adjusted.usage());
			}
			List<ToolCall> calls = turn.accept(adjusted);
			if (calls.isEmpty()) {
				return Mono.empty();
			}
			return runTools(turn, calls, listener).then(Mono.defer(() -> step(turn, listener)));
		});
	}

	private Mono<Void> runTools(Turn turn, List<ToolCall> calls, TurnListener listener) {
		for (ToolCall call : calls) {
			listener.onToolCallStarted(call);
		}
		ToolResultMessage[] results = new ToolResultMessage[calls.size()];
		return this.toolRunner.run(calls, turn, this.middleware).doOnNext((indexed) -> {
			results[indexed.index()] = indexed.message();
			listener.onToolCallCompleted(indexed.message());
		}).then(Mono.fromRunnable(() -> turn.acceptToolResults(calls, results)));
	}

	private Mono<ChatResponse> callModel(ChatRequest chatRequest) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.model.call(chatRequest)
				.doOnSuccess((response) -> recordModelCall(response.usage(), start, null))
				.doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	/** Stream the model call, forwarding text as it arrives; resolve to the whole response. */
	private Mono<ChatResponse> streamModel(ChatRequest chatRequest, TurnListener listener) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			ChatResponseAccumulator accumulator = new ChatResponseAccumulator();
			return this.model.stream(chatRequest).doOnNext((chunk) -> {
				accumulator.add(chunk);
				if (!chunk.textDelta().isEmpty()) {
					listener.onText(chunk.textDelta());
				}
			}).then(Mono.fromCallable(accumulator::toResponse)).doOnSuccess((response) -> {
				recordModelCall(response.usage(), start, null);
			}).doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	private Mono<AgentResult> finish(Turn turn) {
		this.middleware.afterAgent(turn, turn.messages());
		AgentResult result = turn.result();
		Mono<Void> saved = turn.historyUnchanged() ? this.store.append(turn.sessionId(), result.messages())
				: this.store.replace(turn.sessionId(), List.<Message>copyOf(turn.messages()));
		return saved.thenReturn(result);
	}

	private void recordModelCall(Usage usage, long start, @Nullable Throwable error) {
		this.metrics.modelCall(this.model.providerName(), this.requestModel, usage, System.nanoTime() - start,
				error);
	}

	private static AgentEvent.Failed failed(Throwable ex) {
		String message = ex.getMessage();
		return new AgentEvent.Failed(ex.getClass().getSimpleName(),
				(message != null && !message.isBlank()) ? message : ex.getClass().getSimpleName());
	}

	@Override
	public String toString() {
		return "Agent '" + this.name + "' (" + this.model.providerName() + "/" + this.requestModel + ", tools "
				+ this.toolRunner.specs().stream().map(ToolSpec::name).toList() + ")";
	}

	/** Turns loop notifications into events on the stream. */
	private static final class EventEmitter implements TurnListener {

		private final FluxSink<AgentEvent> sink;

		EventEmitter(FluxSink<AgentEvent> sink) {
			this.sink = sink;
		}

		@Override
		public boolean streaming() {
			return true;
		}

		@Override
		public void onText(String delta) {
			this.sink.next(new AgentEvent.TextDelta(delta));
		}

		@Override
		public void onUsage(Usage usage) {
			this.sink.next(new AgentEvent.UsageReported(usage));
		}

		@Override
		public void onToolCallStarted(ToolCall call) {
			this.sink.next(new AgentEvent.ToolCallStarted(call.id(), call.name(), call.arguments()));
		}

		@Override
		public void onToolCallCompleted(ToolResultMessage result) {
			this.sink.next(new AgentEvent.ToolCallCompleted(result.toolCallId(), result.toolName(), result.text(),
					result.error()));
		}

	}

}
