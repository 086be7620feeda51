package dev.agcore.runtime;

import java.util.List;

import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.memory.ConversationStore;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The agent loop: call the model; while it asks for tools, run them and call it again;
 * then store the turn. {@link #invoke} and {@link #stream} share every step, so both
 * produce the same conversation.
 */
final class DefaultAgent implements Agent {

	private final String name;

	private final ChatModel model;

	private final String systemPrompt;

	private final ToolRunner toolRunner;

	private final int maxIterations;

	private final ChatOptions options;

	private final ConversationStore store;

	private final AgentMetrics metrics;

	private final String requestModel;

	DefaultAgent(String name, ChatModel model, String systemPrompt, ToolRunner toolRunner, int maxIterations,
			ChatOptions options, ConversationStore store, AgentMetrics metrics) {
		this.name = name;
		this.model = model;
		this.systemPrompt = systemPrompt;
		this.toolRunner = toolRunner;
		this.maxIterations = maxIterations;
		this.options = options;
		this.store = store;
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

	@Override
	public Mono<AgentResult> invoke(AgentRequest request) {
		return this.store.load(request.sessionId()).flatMap((history) -> {
			Turn turn = new Turn(request, this.systemPrompt, history);
			return step(turn).then(Mono.defer(() -> store(turn)));
		});
	}

	private Mono<Void> step(Turn turn) {
		if (turn.modelCalls() >= this.maxIterations) {
			turn.finishMaxIterations(this.name, this.maxIterations);
			return Mono.empty();
		}
		ChatRequest chatRequest = turn.nextRequest(this.toolRunner.specs(), this.options);
		return callModel(chatRequest).flatMap((response) -> {
			List<ToolCall> calls = turn.accept(response);
			if (calls.isEmpty()) {
				return Mono.empty();
			}
			ToolResultMessage[] results = new ToolResultMessage[calls.size()];
			return this.toolRunner.run(calls, turn)
				.doOnNext((indexed) -> results[indexed.index()] = indexed.message())
				.then(Mono.defer(() -> {
					turn.acceptToolResults(calls, results);
					return step(turn);
				}));
		});
	}

	private Mono<ChatResponse> callModel(ChatRequest chatRequest) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.model.call(chatRequest)
				.doOnSuccess((response) -> recordModelCall(response.usage(), start, null))
				.doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	@Override
	public Flux<AgentEvent> stream(AgentRequest request) {
		return this.store.load(request.sessionId())
			.flatMapMany((history) -> {
				Turn turn = new Turn(request, this.systemPrompt, history);
				return streamStep(turn).concatWith(Mono.defer(() -> store(turn).map(AgentEvent.Completed::new)));
			})
			.onErrorResume((ex) -> Mono.just(failed(ex)));
	}

	private Flux<AgentEvent> streamStep(Turn turn) {
		if (turn.modelCalls() >= this.maxIterations) {
			turn.finishMaxIterations(this.name, this.maxIterations);
			return Flux.empty();
		}
		ChatRequest chatRequest = turn.nextRequest(this.toolRunner.specs(), this.options);
		ChatResponseAccumulator accumulator = new ChatResponseAccumulator();
		Flux<AgentEvent> deltas = streamModel(chatRequest, accumulator).filter((chunk) -> !chunk.textDelta().isEmpty())
			.map((chunk) -> new AgentEvent.TextDelta(chunk.textDelta()));
		return deltas.concatWith(Flux.defer(() -> afterStreamedResponse(turn, accumulator.toResponse())));
	}

	private Flux<AgentEvent> afterStreamedResponse(Turn turn, ChatResponse response) {
		List<ToolCall> calls = turn.accept(response);
		Flux<AgentEvent> usage = response.usage().isEmpty() ? Flux.empty()
				: Flux.just(new AgentEvent.UsageReported(response.usage()));
		if (calls.isEmpty()) {
			return usage;
		}
		ToolResultMessage[] results = new ToolResultMessage[calls.size()];
		Flux<AgentEvent> started = Flux.fromIterable(calls)
			.map((call) -> new AgentEvent.ToolCallStarted(call.id(), call.name(), call.arguments()));
		Flux<AgentEvent> completed = this.toolRunner.run(calls, turn).map((indexed) -> {
			results[indexed.index()] = indexed.message();
			ToolResultMessage message = indexed.message();
			return new AgentEvent.ToolCallCompleted(message.toolCallId(), message.toolName(), message.text(),
					message.error());
		});
		Flux<AgentEvent> next = Flux.defer(() -> {
			turn.acceptToolResults(calls, results);
			return streamStep(turn);
		});
		return Flux.concat(usage, started, completed, next);
	}

	private Flux<ChatChunk> streamModel(ChatRequest chatRequest, ChatResponseAccumulator accumulator) {
		return Flux.defer(() -> {
			long start = System.nanoTime();
			return this.model.stream(chatRequest)
				.doOnNext(accumulator::add)
				.doOnComplete(() -> recordModelCall(accumulator.toResponse().usage(), start, null))
				.doOnError((ex) -> recordModelCall(Usage.EMPTY, start, ex));
		});
	}

	private Mono<AgentResult> store(Turn turn) {
		AgentResult result = turn.result();
		return this.store.append(turn.sessionId(), result.messages()).thenReturn(result);
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

}
