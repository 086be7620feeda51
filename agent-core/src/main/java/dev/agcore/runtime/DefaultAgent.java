package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.agcore.audit.Auditor;
import dev.agcore.context.ContextCapture;
import dev.agcore.memory.Conversation;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.PendingTurn;
import dev.agcore.memory.SessionContextBlock;
import dev.agcore.memory.window.ContextWindow;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.MiddlewareChain;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ToolCallFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservationDocumentation.Events;
import dev.agcore.observation.AgentObservations;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The agent loop: call the model; while it asks for tools, run them and call it again;
 * then store the turn. {@link #invoke} and {@link #stream} run the very same loop; the
 * stream only listens to it, so both produce the same conversation.
 */
final class DefaultAgent implements Agent {

	private final String name;

	private final ChatModel model;

	private final PromptSettings prompt;

	private final ToolRunner toolRunner;

	private final int maxIterations;

	private final ChatOptions options;

	private final ConversationStore store;

	private final TurnStore turnStore;

	private final MiddlewareChain middleware;

	private final String requestModel;

	private final Map<String, ChatModel> models;

	private final AgentMetrics metrics;

	private final Resumption resumption;

	private final ModelStep modelStep;

	private final TurnRunner runner;

	private final Duration turnTimeout;

	/** Whether hooks are marked as events on the turn's observation. */
	private final boolean observesHooks;

	private final TurnFrame frame;

	private final TurnAccess access;

	DefaultAgent(String name, ChatModel model, PromptSettings prompt, ToolRunner toolRunner, int maxIterations,
			ChatOptions options, ConversationStore store, MiddlewareChain middleware, AgentMetrics metrics,
			AgentObservations observations, Duration turnTimeout, ContextWindow window, Map<String, ChatModel> models,
			List<ModelAdapter> adapters, ToolCallFormat toolCallFormat, RunnerSettings runners,
			TurnLogSettings turnLog, ContextCapture contextCapture, TurnAccess access) {
		this.name = name;
		this.model = model;
		this.prompt = prompt;
		this.toolRunner = toolRunner;
		this.maxIterations = maxIterations;
		this.options = options;
		this.store = store;
		this.turnStore = new TurnStore(this.store, toolRunner.store(), name);
		this.middleware = middleware;
		this.requestModel = (options.model() != null) ? options.model() : model.modelName();
		this.models = Map.copyOf(models);
		this.metrics = metrics;
		this.observesHooks = !observations.isNoop() && !middleware.isEmpty();
		this.resumption = new Resumption(this, store);
		this.turnTimeout = turnTimeout;
		boolean bufferText = middleware.middlewares().stream().anyMatch(AgentMiddleware::rewritesModelOutput);
		this.modelStep = new ModelStep(name, prompt, middleware,
				new ModelInvoker(name, metrics, observations, adapters, toolCallFormat), window, bufferText,
				this.observesHooks);
		this.runner = runners.create(this, this.modelStep, metrics);
		this.frame = new TurnFrame(name, model.providerName(), this.requestModel, metrics, observations, turnTimeout,
				turnLog, contextCapture);
		this.access = access;
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
		return (this.prompt.template() != null) ? this.prompt.template().template().text() : this.prompt.systemPrompt();
	}

	@Override
	public List<ToolSpec> tools() {
		return this.toolRunner.specs();
	}

	@Override
	public List<ToolCallback> toolCallbacks() {
		return this.toolRunner.tools();
	}

	@Override
	public int maxIterations() {
		return this.maxIterations;
	}

	@Override
	public Duration turnTimeout() {
		return this.turnTimeout;
	}

	Auditor auditor() {
		return this.toolRunner.auditor();
	}

	KeyValueStore keyValueStore() {
		return this.toolRunner.store();
	}

	@Override
	public Mono<List<Message>> history(String sessionId) {
		return this.access.read(sessionId, Mono.defer(() -> this.store.load(sessionId)).map(Conversation::messages));
	}

	@Override
	public Mono<PendingTurn> pendingTurn(String sessionId) {
		return this.access.read(sessionId, Mono.defer(() -> this.store.loadPending(sessionId)));
	}

	@Override
	public List<AgentMiddleware> middleware() {
		return this.middleware.middlewares();
	}

	@Override
	public Mono<AgentResult> invoke(AgentRequest request) {
		// nothing happens before subscription: the caller is checked and the history read when the turn runs
		return gated(request, TurnListener.NONE, null);
	}

	@Override
	public Flux<AgentEvent> stream(AgentRequest request) {
		return TurnEvents.events((listener) -> gated(request, listener, null));
	}

	@Override
	public <T> Mono<StructuredResult<T>> invokeStructured(AgentRequest request, Class<T> type) {
		return Mono.defer(() -> {
			StructuredOutput<T> structured = StructuredOutput.of(type);
			return gated(request, TurnListener.NONE, structured)
				.map((result) -> StructuredOutput.result(this.name, result, structured));
		});
	}

	/** A turn, once its caller may use the session ({@link TurnAccess}), for the user it runs for. */
	private Mono<AgentResult> gated(AgentRequest request, TurnListener listener,
			@Nullable StructuredOutput<?> structured) {
		return this.access.turn(request.sessionId(), request.userId(), (userId) -> {
			AgentRequest checked = Objects.equals(userId, request.userId()) ? request : request.withUserId(userId);
			return this.frame.run(checked.sessionId(), (scope) -> run(checked, listener, structured, scope));
		});
	}

	/**
	 * Choose the turn's model and options before anything of the turn happens: a model the
	 * request names must be one of the agent's; the agent's options fill what the request
	 * leaves unset.
	 */
	TurnSetup setup(ChatOptions requestOptions, @Nullable StructuredOutput<?> structured) {
		ChatModel chosen = this.model;
		ChatOptions options = requestOptions;
		ChatOptions defaults = this.options;
		String named = requestOptions.model();
		if (named != null) {
			chosen = this.models.get(named);
			if (chosen == null) {
				throw new ModelNotAllowedException(this.name, named, this.models.keySet());
			}
			// the chosen model's own name is the one it sends
			options = options.mutate().model(null).build();
			if (defaults.model() != null) {
				defaults = defaults.mutate().model(null).build();
			}
		}
		options = options.withDefaults(defaults);
		ToolChoice choice = options.toolChoice();
		if (choice != null && choice.mode() == ToolChoice.Mode.TOOL
				&& this.toolRunner.specs().stream().noneMatch((spec) -> spec.name().equals(choice.toolName()))) {
			throw new IllegalArgumentException("Agent '" + this.name + "' has no tool '" + choice.toolName()
					+ "' to force; its tools: " + this.toolRunner.specs().stream().map(ToolSpec::name).toList());
		}
		StructuredOutput<?> answer = (structured != null) ? structured : StructuredOutput.fromOptions(options);
		if (answer == null) {
			return new TurnSetup(chosen, options, null, "");
		}
		boolean nativeFormat = StructuredOutput.isNative(chosen);
		return new TurnSetup(chosen, answer.options(options, nativeFormat), answer,
				nativeFormat ? "" : answer.instructions());
	}

	@Override
	public Mono<AgentResult> resume(ResumeRequest request) {
		return gated(request, TurnListener.NONE);
	}

	@Override
	public Flux<AgentEvent> resumeStream(ResumeRequest request) {
		return TurnEvents.events((listener) -> gated(request, listener));
	}

	/** A resumption: a read of the session's paused turn, so only its owner's (or an unowned one's) caller. */
	private Mono<AgentResult> gated(ResumeRequest request, TurnListener listener) {
		return this.access.resume(request.sessionId(), request.userId(), (userId) -> {
			ResumeRequest checked = Objects.equals(userId, request.userId()) ? request : request.withUserId(userId);
			return this.frame.run(checked.sessionId(), (scope) -> this.resumption.resume(checked, listener, scope));
		});
	}

	private Mono<AgentResult> run(AgentRequest request, TurnListener listener,
			@Nullable StructuredOutput<?> structured, TurnScope scope) {
		String sessionId = request.sessionId();
		TurnSetup setup = setup(request.options(), structured);
		return this.store.loadPending(sessionId)
			// not handle(): with context propagation it would restore thread locals around the signal
			.<Conversation>map((pending) -> {
				throw new ResumeException(pausedTurn(sessionId, pending));
			})
			.switchIfEmpty(timedStore("load", () -> this.store.load(sessionId)))
			.zipWith(session(sessionId), (conversation, session) -> {
				Turn turn = new Turn(this.name, request, conversation, this.toolRunner.store(), scope);
				turn.setup(setup);
				turn.session(session);
				scope.count(turn);
				return turn;
			})
			.flatMap((turn) -> {
				if (!this.middleware.hasBeforeAgent()) {
					turn.markTurnStart();
					return loop(turn, listener);
				}
				return TurnObservations.marked(this.observesHooks, Events.BEFORE_AGENT,
						this.middleware.beforeAgent(turn, turn.messages()))
					.then(Mono.defer(() -> {
						turn.markTurnStart();
						return loop(turn, listener);
					}));
			});
	}

	/**
	 * Read the session's memory once per turn, for the system prompt: its block (empty when
	 * the agent does not show it) and its values (for a system prompt template).
	 */
	Mono<SessionContextBlock.Snapshot> session(String sessionId) {
		if (!this.prompt.readsSession()) {
			return Mono.just(SessionContextBlock.Snapshot.EMPTY);
		}
		Mono<SessionContextBlock.Snapshot> read = SessionContextBlock.snapshot(this.toolRunner.store(), sessionId);
		return this.prompt.sessionContext() ? read
				: read.map((snapshot) -> new SessionContextBlock.Snapshot("", snapshot.values()));
	}

	/** Run model calls and tools until the turn finishes, then store it. */
	Mono<AgentResult> loop(Turn turn, TurnListener listener) {
		Mono<AgentResult> finished = turn.scope().deadline().finishing(() -> finish(turn));
		return turn.isFinished() ? finished : this.runner.run(turn, listener).then(finished);
	}

	/** The ReAct runner: one model call, then its tools, then again, up to max-iterations. */
	Mono<Void> step(Turn turn, TurnListener listener) {
		if (turn.modelCalls() >= this.maxIterations) {
			turn.finishMaxIterations(this.maxIterations);
			return Mono.empty();
		}
		return this.modelStep
			.call(turn, this.toolRunner.specs(), turn.nextOptions(), turn.setup().instructions(),
					UnaryOperator.identity(), listener)
			.flatMap((adjusted) -> {
				List<ToolCall> calls = turn.accept(adjusted);
				if (calls.isEmpty()) {
					return checkStructured(turn, listener);
				}
				return runTools(turn, calls, listener, () -> step(turn, listener));
			});
	}

	/**
	 * Check a final answer that must have a structure: keep it as the output if it has;
	 * else ask the model once more with what is wrong, and fail if it is wrong again.
	 */
	private Mono<Void> checkStructured(Turn turn, TurnListener listener) {
		StructuredOutput<?> structured = turn.setup().structured();
		String answer = turn.output();
		if (structured == null || !turn.isCompleted() || answer == null) {
			return Mono.empty();
		}
		String problem = structured.accept(answer);
		if (problem == null) {
			turn.finishStructured(structured.json());
			return Mono.empty();
		}
		if (turn.isRepaired()) {
			return Mono.error(new StructuredOutputException(this.name, problem, answer));
		}
		turn.repair(structured.repairPrompt(problem));
		if (listener.streaming()) {
			// the answer shown is void; the one asked for next replaces it
			listener.onTextReset();
		}
		return step(turn, listener);
	}

	/** Run tool calls and add their results; pause the turn if any call needs a decision. */
	Mono<Void> runTools(Turn turn, List<ToolCall> calls, TurnListener listener) {
		return runTools(turn, calls, listener, Mono::empty);
	}

	/**
	 * Run tool calls and add their results; pause the turn if any call needs a decision;
	 * then, unless that finished the turn, go on with {@code next}.
	 */
	Mono<Void> runTools(Turn turn, List<ToolCall> calls, TurnListener listener, Supplier<Mono<Void>> next) {
		for (ToolCall call : calls) {
			listener.onToolCallStarted(call);
		}
		ToolRound round = new ToolRound(calls.size(), listener);
		return this.toolRunner.run(calls, turn, this.middleware, listener, round::add).then(Mono.defer(() -> {
			turn.acceptToolResults(round.results());
			if (round.hasPending()) {
				turn.interrupt(round.pending());
			}
			else {
				finishIfReturnsDirectly(turn, listener);
			}
			return turn.isFinished() ? Mono.empty() : next.get();
		}));
	}

	/** Finish the turn with the results of the last tool calls if their tools return directly. */
	void finishIfReturnsDirectly(Turn turn, TurnListener listener) {
		String direct = turn.finishIfReturnsDirectly(this.toolRunner::returnsDirectly);
		if (direct != null) {
			// the answer is the tool's result: show it as the model's text would be
			listener.onText(direct);
		}
	}

	private Mono<AgentResult> finish(Turn turn) {
		if (turn.isInterrupted()) {
			// not the end of the turn: after-agent hooks run when the resumed turn ends
			return this.turnStore.paused(turn).thenReturn(turn.result());
		}
		if (!this.middleware.hasAfterAgent()) {
			return store(turn);
		}
		return TurnObservations
			.marked(this.observesHooks, Events.AFTER_AGENT, this.middleware.afterAgent(turn, turn.messages()))
			.then(Mono.defer(() -> store(turn)));
	}

	private Mono<AgentResult> store(Turn turn) {
		turn.relocateTurnStart();
		AgentResult result = turn.result();
		return timedStore("append", () -> this.turnStore.finished(turn, result.messages())).thenReturn(result);
	}

	private <T> Mono<T> timedStore(String operation, Supplier<Mono<T>> operationMono) {
		if (this.metrics == AgentMetrics.NOOP) {
			// no meters: no timing operators on every turn
			return operationMono.get();
		}
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return Ending.watch(operationMono.get(), new Ending.Listener<T>() {

				@Override
				public void succeeded(@Nullable T value) {
					DefaultAgent.this.metrics.storeOperation(operation, System.nanoTime() - start, null);
				}

				@Override
				public void failed(Throwable error) {
					DefaultAgent.this.metrics.storeOperation(operation, System.nanoTime() - start, error);
				}

				@Override
				public void cancelled() {
				}

			});
		});
	}

	private static String pausedTurn(String sessionId, PendingTurn pending) {
		if (pending.pendingCalls().isEmpty()) {
			// its decided calls ran, then its resumption failed or was cancelled
			return "Session '" + sessionId + "' has an unfinished turn whose decided tool calls ran; resume it with "
					+ "no decisions (unless it is being resumed) before sending a new message";
		}
		return "Session '" + sessionId + "' has tool calls waiting for a decision " + pending.pendingCalls()
			.stream()
			.map((call) -> call.name() + " (" + call.id() + ")")
			.toList() + "; resume that turn before sending a new message";
	}

	@Override
	public String toString() {
		return "Agent '" + this.name + "' (" + this.model.providerName() + "/" + this.requestModel + ", tools "
				+ this.toolRunner.specs().stream().map(ToolSpec::name).toList() + ")";
	}

}
