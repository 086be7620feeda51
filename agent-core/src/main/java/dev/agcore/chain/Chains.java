package dev.agcore.chain;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.prompt.PromptTemplate;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.StructuredAnswers;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Factories of {@link Runnable} steps: from functions, prompt templates, models, output
 * parsers, retrievers and agents. Each step is named after what it adapts, for error
 * messages; name a composed chain with {@link Runnable#named}.
 *
 * @since 0.1.0
 */
public final class Chains {

	private Chains() {
	}

	/**
	 * A step that applies a function that may block. It runs on
	 * {@link Schedulers#boundedElastic()}, never on the caller's thread, so the function may
	 * do I/O and a chain run from an event loop stays non-blocking.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param function the function; returning {@code null} fails the step
	 * @return the step, named {@code lambda}
	 */
	public static <I, O> Runnable<I, O> lambda(Function<? super I, ? extends O> function) {
		Objects.requireNonNull(function, "'function' must not be null");
		return new Step<I, O>("lambda",
				(input) -> Mono.<O>fromCallable(() -> function.apply(input)).subscribeOn(Schedulers.boundedElastic()));
	}

	/**
	 * A step that applies a non-blocking function, on the caller's thread.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param function the function; it must not block
	 * @return the step, named {@code reactive}
	 */
	public static <I, O> Runnable<I, O> reactive(Function<? super I, ? extends Mono<? extends O>> function) {
		Objects.requireNonNull(function, "'function' must not be null");
		return new Step<I, O>("reactive", (input) -> narrow(function.apply(input)));
	}

	/**
	 * A step that produces text in pieces, such as a model's stream of its own making:
	 * {@link Runnable#stream} emits the pieces, {@link Runnable#invoke} their
	 * concatenation.
	 * @param <I> the input type
	 * @param function the non-blocking function giving the pieces
	 * @return the step, named {@code streaming}
	 */
	public static <I> Runnable<I, String> streaming(Function<? super I, ? extends Flux<String>> function) {
		Objects.requireNonNull(function, "'function' must not be null");
		return new Step<I, String>("streaming", (input) -> joined(function.apply(input)), function::apply);
	}

	/**
	 * A step that renders a prompt template with its input as the variables.
	 * @param template the template
	 * @return the step, named {@code prompt:<template>}; fails with a
	 * {@link dev.agcore.prompt.PromptException} naming a missing variable
	 */
	public static Runnable<Map<String, ?>, String> prompt(PromptTemplate template) {
		Objects.requireNonNull(template, "'template' must not be null");
		return new Step<>("prompt:" + template.name(), (variables) -> Mono.fromCallable(() -> template.render(variables)));
	}

	/**
	 * A step that renders a prompt template of one variable, whose value is its input.
	 * @param template the template
	 * @param variable the name of the variable, e.g. {@code question}
	 * @return the step, named {@code prompt:<template>}
	 */
	public static Runnable<String, String> prompt(PromptTemplate template, String variable) {
		Objects.requireNonNull(template, "'template' must not be null");
		Objects.requireNonNull(variable, "'variable' must not be null");
		return new Step<>("prompt:" + template.name(),
				(value) -> Mono.fromCallable(() -> template.render(Map.of(variable, value))));
	}

	/**
	 * A step that sends its input to a model as a user message and gives the answer's
	 * text. It streams the text as the model generates it.
	 * @param model the model; retries, limits and prices are the model's, as configured
	 * @return the step, named {@code model:<provider>/<model>}
	 */
	public static Runnable<String, String> model(ChatModel model) {
		return model(model, ChatOptions.DEFAULTS);
	}

	/**
	 * A step that sends its input to a model as a user message, with options, and gives
	 * the answer's text. It streams the text as the model generates it.
	 * @param model the model
	 * @param options the options of each call, such as the temperature
	 * @return the step, named {@code model:<provider>/<model>}
	 */
	public static Runnable<String, String> model(ChatModel model, ChatOptions options) {
		return model(model, options, AgentMetrics.NOOP);
	}

	/**
	 * A step that sends its input to a model as a user message, with options, and gives
	 * the answer's text, recording each call as agents' model calls are recorded
	 * ({@code gen_ai.client.operation.duration}, {@code gen_ai.client.token.usage},
	 * {@code gen_ai.client.operation.time_to_first_chunk}).
	 * @param model the model
	 * @param options the options of each call, such as the temperature
	 * @param metrics where the calls are recorded, such as the application's
	 * {@code AgentMetrics} bean
	 * @return the step, named {@code model:<provider>/<model>}
	 */
	public static Runnable<String, String> model(ChatModel model, ChatOptions options, AgentMetrics metrics) {
		Objects.requireNonNull(model, "'model' must not be null");
		Objects.requireNonNull(options, "'options' must not be null");
		Objects.requireNonNull(metrics, "'metrics' must not be null");
		Function<String, ChatRequest> request = (text) -> new ChatRequest(List.of(new UserMessage(text)), List.of(),
				options);
		String requestModel = (options.model() != null) ? options.model() : model.modelName();
		return new Step<>(modelName(model), (text) -> Mono.defer(() -> {
			long start = System.nanoTime();
			return model.call(request.apply(text))
				.doOnNext((response) -> metrics.modelCall(model.providerName(), requestModel, response.usage(),
						System.nanoTime() - start, null))
				.doOnError((ex) -> metrics.modelCall(model.providerName(), requestModel, Usage.EMPTY,
						System.nanoTime() - start, ex))
				.map(Chains::text);
		}), (text) -> Flux.defer(() -> {
			long start = System.nanoTime();
			AtomicBoolean first = new AtomicBoolean(true);
			AtomicReference<Usage> usage = new AtomicReference<>(Usage.EMPTY);
			return model.stream(request.apply(text))
				.doOnNext((chunk) -> {
					if (first.compareAndSet(true, false)) {
						metrics.modelFirstChunk(model.providerName(), requestModel, System.nanoTime() - start);
					}
					if (chunk.usage() != null) {
						usage.set(chunk.usage());
					}
				})
				.doOnComplete(() -> metrics.modelCall(model.providerName(), requestModel, usage.get(),
						System.nanoTime() - start, null))
				.doOnError((ex) -> metrics.modelCall(model.providerName(), requestModel, usage.get(),
						System.nanoTime() - start, ex))
				.map(ChatChunk::textDelta)
				.filter((delta) -> !delta.isEmpty());
		}));
	}

	/**
	 * A step that sends a list of messages to a model and gives its whole response, with
	 * usage and finish reason. It does not stream: its one output is the response.
	 * @param model the model
	 * @return the step, named {@code chat:<provider>/<model>}
	 */
	public static Runnable<List<Message>, ChatResponse> chat(ChatModel model) {
		return chat(model, ChatOptions.DEFAULTS);
	}

	/**
	 * A step that sends a list of messages to a model, with options, and gives its whole
	 * response.
	 * @param model the model
	 * @param options the options of each call
	 * @return the step, named {@code chat:<provider>/<model>}
	 */
	public static Runnable<List<Message>, ChatResponse> chat(ChatModel model, ChatOptions options) {
		Objects.requireNonNull(model, "'model' must not be null");
		Objects.requireNonNull(options, "'options' must not be null");
		return new Step<>("chat:" + model.providerName() + "/" + model.modelName(),
				(messages) -> model.call(new ChatRequest(messages, List.of(), options)));
	}

	/**
	 * A step that gives its text input stripped of leading and trailing white space.
	 * @return the step, named {@code text}
	 */
	public static Runnable<String, String> text() {
		return new Step<>("text", (text) -> Mono.just(text.strip()));
	}

	/**
	 * A step that reads its text input as a Java type, as agents read structured answers
	 * ({@link StructuredAnswers#read}): the JSON is taken out of code fences and prose,
	 * mapped to the type and validated with Bean Validation when it is on the class path.
	 * {@link StructuredAnswers#instructions(Class)} gives the instructions that ask a
	 * model for the type.
	 * @param <T> the type
	 * @param type the type
	 * @return the step, named {@code parse:<type>}; fails with a
	 * {@link dev.agcore.runtime.InvalidAnswerException} saying what is wrong
	 */
	public static <T> Runnable<String, T> parse(Class<T> type) {
		Objects.requireNonNull(type, "'type' must not be null");
		return new Step<>("parse:" + type.getSimpleName(),
				(answer) -> Mono.fromCallable(() -> StructuredAnswers.read(answer, type)));
	}

	/**
	 * A step that searches a retriever for its input.
	 * @param retriever the retriever
	 * @param topK the most documents to give
	 * @return the step, named {@code retriever}; its output is the documents found, best
	 * first, possibly none
	 */
	public static Runnable<String, List<ScoredDocument>> retriever(Retriever retriever, int topK) {
		Objects.requireNonNull(retriever, "'retriever' must not be null");
		SearchRequest.of("").withTopK(topK); // checks topK now rather than on the first run
		return new Step<>("retriever", (query) -> retriever.retrieve(SearchRequest.of(query).withTopK(topK)));
	}

	/**
	 * A step that runs one turn of an agent with its input as the user's message, each
	 * time in a new session ({@code chain-<random UUID>}), and gives the answer. The
	 * turn is stored in the agent's conversation store as any other. It does not stream.
	 * @param agent the agent
	 * @return the step, named {@code agent:<name>}; fails with a {@link ChainException}
	 * when the turn ends without an answer (paused for approval, or at its iteration
	 * bound)
	 */
	public static Runnable<String, String> agent(Agent agent) {
		Objects.requireNonNull(agent, "'agent' must not be null");
		return agentStep(agent, (message) -> AgentRequest.of("chain-" + UUID.randomUUID(), message));
	}

	/**
	 * A step that runs one turn of an agent in a given session, with its input as the
	 * user's message, and gives the answer; successive runs continue the conversation.
	 * @param agent the agent
	 * @param sessionId the session
	 * @return the step, named {@code agent:<name>}
	 */
	public static Runnable<String, String> agent(Agent agent, String sessionId) {
		Objects.requireNonNull(agent, "'agent' must not be null");
		AgentRequest.of(sessionId, ""); // checks the id now rather than on the first run
		return agentStep(agent, (message) -> AgentRequest.of(sessionId, message));
	}

	/**
	 * Return a step whose runs are recorded in metrics under its
	 * {@link Runnable#name() name}, as taken now ({@link AgentMetrics#chainCall}): each
	 * invocation and each stream, with its outcome and duration. Name the step first.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param runnable the step
	 * @param metrics where runs are recorded
	 * @return the observed step
	 */
	public static <I, O> Runnable<I, O> observed(Runnable<I, O> runnable, AgentMetrics metrics) {
		Objects.requireNonNull(runnable, "'runnable' must not be null");
		Objects.requireNonNull(metrics, "'metrics' must not be null");
		return new ObservedRunnable<>(runnable, metrics);
	}

	private static Runnable<String, String> agentStep(Agent agent, Function<String, AgentRequest> request) {
		return new Step<>("agent:" + agent.name(),
				(message) -> agent.invoke(request.apply(message)).flatMap((result) -> answer(agent, result)));
	}

	private static Mono<String> answer(Agent agent, AgentResult result) {
		if (result.isCompleted()) {
			return Mono.just(result.output());
		}
		return Mono.error(new ChainException("Agent '" + agent.name() + "' ended its turn "
				+ result.status().name().toLowerCase(Locale.ROOT) + " without an answer (session '"
				+ result.sessionId() + "')"));
	}

	private static String modelName(ChatModel model) {
		return "model:" + model.providerName() + "/" + model.modelName();
	}

	private static String text(ChatResponse response) {
		return response.message().text();
	}

	private static @Nullable Mono<String> joined(@Nullable Flux<String> pieces) {
		return (pieces != null) ? pieces.collect(Collectors.joining()) : null;
	}

	@SuppressWarnings("unchecked")
	private static <O> Mono<O> narrow(Mono<? extends O> mono) {
		// a Mono only produces values: one of a subtype is one of the type
		return (Mono<O>) mono;
	}

}
