package dev.agcore.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ModelRetryListener;
import dev.agcore.model.ToolCallFormat;
import dev.agcore.model.Usage;
import dev.agcore.model.xml.XmlToolCallStream;
import dev.agcore.model.xml.XmlToolPrompt;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.AgentObservationDocumentation;
import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ChatObservationContext;
import dev.agcore.observation.ContentCapture;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The innermost model call of a turn, under every middleware: adapts the request to the
 * model ({@link ModelAdapter}s), calls or streams the turn's model, splits
 * {@code <think>} blocks out of its text, forwards streamed text and reasoning to the
 * caller, and records each call's duration and usage. A model called in the
 * {@link ToolCallFormat#XML XML tool-call format} is sent the tools in its system prompt
 * ({@link XmlToolPrompt}) and its calls are parsed out of its text, also as it streams,
 * so that the caller sees only the prose and the loop gets ordinary tool calls.
 */
final class ModelInvoker {

	/**
	 * Reasoning blocks split out of the text are numbered from here, apart from the
	 * blocks a provider reports itself.
	 */
	static final int THINK_BLOCK_INDEX = 1 << 20;

	private static final int MAX_REMEMBERED_MODELS = 64;

	private final String agentName;

	private final AgentMetrics metrics;

	private final AgentObservations observations;

	private final List<ModelAdapter> adapters;

	// which adapters apply depends only on the provider and the model name: asked once per
	// pair (their regular expressions were a noticeable part of a turn's allocations)
	private final Map<String, Map<String, List<ModelAdapter>>> applicable = new ConcurrentHashMap<>();

	private final ToolCallFormat format;

	ModelInvoker(String agentName, AgentMetrics metrics, AgentObservations observations, List<ModelAdapter> adapters,
			ToolCallFormat format) {
		this.agentName = agentName;
		this.metrics = metrics;
		this.observations = observations;
		this.adapters = List.copyOf(adapters);
		this.format = format;
	}

	Mono<ChatResponse> call(ChatModel model, ChatRequest chatRequest) {
		return Mono.defer(() -> {
			ChatRequest request = adapt(model, chatRequest);
			String requestModel = requestModel(model, request);
			int firstXmlId = parsesXml(model, chatRequest) ? firstXmlId(chatRequest) : 0;
			Mono<ChatResponse> call = model.call(request).map((response) -> {
				ChatResponse split = splitThinking(response);
				return (firstXmlId > 0) ? parseXml(split, firstXmlId) : split;
			});
			return observe(recorded(call, model, requestModel), model, requestModel, request, false);
		});
	}

	/** The call, its duration and usage recorded in the metrics, if there are any. */
	private Mono<ChatResponse> recorded(Mono<ChatResponse> call, ChatModel model, String requestModel) {
		if (this.metrics == AgentMetrics.NOOP) {
			return call;
		}
		long start = System.nanoTime();
		return Ending.watch(call, new Ending.Listener<>() {

			@Override
			public void succeeded(@Nullable ChatResponse response) {
				recordModelCall(model, requestModel, (response != null) ? response.usage() : Usage.EMPTY, start, null);
			}

			@Override
			public void failed(Throwable error) {
				recordModelCall(model, requestModel, Usage.EMPTY, start, error);
			}

			@Override
			public void cancelled() {
			}

		});
	}

	/**
	 * Stream the model call, forwarding text and reasoning as they arrive and adding the
	 * text to what the caller was shown; resolve to the whole response.
	 */
	Mono<ChatResponse> stream(ChatModel model, ChatRequest chatRequest, TurnListener listener, ShownText shown) {
		return Mono.defer(() -> {
			if (!shown.isEmpty()) {
				// a wrapper calls the model again: the text of the earlier call is void
				listener.onTextReset();
				shown.reset();
			}
			ChatRequest request = adapt(model, chatRequest);
			String requestModel = requestModel(model, request);
			long start = System.nanoTime();
			ChatResponseAccumulator accumulator = new ChatResponseAccumulator(model.providerName());
			ThinkSplitter splitter = new ThinkSplitter();
			XmlToolCallStream xml = parsesXml(model, chatRequest) ? new XmlToolCallStream(firstXmlId(chatRequest))
					: null;
			List<ToolCall> xmlCalls = new ArrayList<>(1);
			boolean[] first = { true };
			Mono<ChatResponse> streamed = model.stream(request).doOnNext((chunk) -> {
				if (first[0]) {
					first[0] = false;
					this.metrics.modelFirstChunk(model.providerName(), requestModel, System.nanoTime() - start);
				}
				ChatChunk.ReasoningDelta reasoning = chunk.reasoning();
				if (reasoning != null && !reasoning.textDelta().isEmpty() && listener.streaming()) {
					listener.onReasoning(reasoning.textDelta());
				}
				if (chunk.textDelta().isEmpty()) {
					accumulator.add(chunk);
					return;
				}
				String plain = (xml == null) ? splitter.plain(chunk.textDelta()) : null;
				if (plain != null) {
					// the usual chunk: its text is the answer's, as it came
					accumulator.add(chunk);
					if (listener.streaming()) {
						shown.showed();
						listener.onText(plain);
					}
					return;
				}
				List<ThinkSplitter.Piece> pieces = splitter.feed(chunk.textDelta());
				if (xml != null) {
					pieces = parseXml(pieces, xml, xmlCalls);
				}
				accumulator.add(new ChatChunk(text(pieces), chunk.toolCalls(), chunk.usage(), chunk.finishReason(),
						chunk.model(), chunk.reasoning(), chunk.refusalDelta()));
				forward(pieces, accumulator, listener, shown);
			}).then(Mono.fromCallable(() -> {
				List<ThinkSplitter.Piece> last = splitter.finish();
				if (xml != null) {
					last = parseXml(last, xml, xmlCalls);
					String rest = xml.finish().text();
					if (!rest.isEmpty()) {
						last.add(new ThinkSplitter.Piece(false, rest, -1));
					}
				}
				// text held back to the end belongs to the response as much as to the caller
				String lastText = text(last);
				if (!lastText.isEmpty()) {
					accumulator.add(ChatChunk.text(lastText));
				}
				forward(last, accumulator, listener, shown);
				ChatResponse response = accumulator.toResponse();
				// what was shown is the response's text, without a copy kept as it streamed
				shown.ended(response.message().text());
				return withCalls(response, response.message().text(), xmlCalls);
			}));
			return observe(recorded(streamed, model, requestModel), model, requestModel, request, true);
		});
	}

	/**
	 * Observe a model call as a child of the turn the Reactor context carries, ended by its
	 * response (after the last chunk of a stream), its failure or its cancellation; and
	 * report retries of a retrying model to the metrics and the observation.
	 */
	private Mono<ChatResponse> observe(Mono<ChatResponse> call, ChatModel model, String requestModel,
			ChatRequest request, boolean streaming) {
		if (this.observations.isNoop()) {
			if (this.metrics == AgentMetrics.NOOP) {
				// neither spans nor meters: nothing to tell of retries
				return call;
			}
			ModelRetryListener retries = (ex, delay) -> this.metrics.modelRetry(model.providerName(), requestModel,
					ex);
			return call.contextWrite((context) -> context.put(ModelRetryListener.CONTEXT_KEY, retries));
		}
		return Mono.deferContextual((view) -> {
			Observation parent = AgentObservations.current(view);
			ChatObservationContext context = new ChatObservationContext(this.agentName, model.providerName(),
					requestModel, TurnObservations.sessionId(parent), streaming);
			TurnObservations.Once once = new TurnObservations.Once(this.observations.chat(context, parent).start());
			Observation observation = once.observation();
			ContentCapture capture = this.observations.contentCapture();
			TurnObservations.capture(observation, capture, HighCardinalityKeyNames.INPUT_MESSAGES,
					request.messages());
			ModelRetryListener retries = (ex, delay) -> {
				this.metrics.modelRetry(model.providerName(), requestModel, ex);
				observation.event(AgentObservationDocumentation.Events.RETRY);
			};
			return call.doOnSuccess((response) -> {
				if (response != null) {
					context.setResponseModel(response.model());
					context.setFinishReasons(List.of(response.finishReason()));
					context.setUsage(response.usage());
					TurnObservations.capture(observation, capture, HighCardinalityKeyNames.OUTPUT_MESSAGES,
							List.of(response.message()));
				}
				once.stop(null);
			})
				.doOnError(once::stop)
				.doOnCancel(() -> once.stop(null))
				.contextWrite((ctx) -> ctx.put(ObservationThreadLocalAccessor.KEY, observation)
					.put(ModelRetryListener.CONTEXT_KEY, retries));
		});
	}

	private ChatRequest adapt(ChatModel model, ChatRequest chatRequest) {
		// before the adapters: they see a request without native tools (no tool-use guidance)
		ChatRequest request = this.format.usesXml(model) ? XmlToolPrompt.rewrite(chatRequest) : chatRequest;
		if (this.adapters.isEmpty()) {
			return request;
		}
		ChatRequest adapted = request;
		for (ModelAdapter adapter : applicable(model.providerName(), requestModel(model, request))) {
			adapted = adapter.adapt(adapted);
		}
		return adapted;
	}

	private List<ModelAdapter> applicable(String provider, String modelName) {
		Map<String, List<ModelAdapter>> byModel = this.applicable.computeIfAbsent(provider,
				(key) -> new ConcurrentHashMap<>());
		List<ModelAdapter> found = byModel.get(modelName);
		if (found == null) {
			found = this.adapters.stream().filter((adapter) -> adapter.supports(provider, modelName)).toList();
			// the model name may come from a request's options: remember a bounded number
			if (byModel.size() < MAX_REMEMBERED_MODELS) {
				byModel.put(modelName, found);
			}
		}
		return found;
	}

	private boolean parsesXml(ChatModel model, ChatRequest request) {
		return this.format.usesXml(model) && XmlToolPrompt.offersTools(request);
	}

	/** Ids of parsed calls continue after the calls already in the conversation. */
	private static int firstXmlId(ChatRequest request) {
		int calls = 0;
		for (Message message : request.messages()) {
			if (message instanceof AssistantMessage assistant) {
				calls += assistant.toolCalls().size();
			}
		}
		return calls + 1;
	}

	/** Text pieces with the calls in them taken out into {@code calls}. */
	private static List<ThinkSplitter.Piece> parseXml(List<ThinkSplitter.Piece> pieces, XmlToolCallStream xml,
			List<ToolCall> calls) {
		List<ThinkSplitter.Piece> parsed = new ArrayList<>(pieces.size());
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning()) {
				parsed.add(piece);
				continue;
			}
			XmlToolCallStream.Result result = xml.feed(piece.text());
			calls.addAll(result.calls());
			if (!result.text().isEmpty()) {
				parsed.add(new ThinkSplitter.Piece(false, result.text(), -1));
			}
		}
		return parsed;
	}

	/** A whole response's calls, moved from its text to its tool calls. */
	private static ChatResponse parseXml(ChatResponse response, int firstId) {
		XmlToolCallStream.Result result = XmlToolCallStream.parse(response.message().text(), firstId);
		return withCalls(response, result.text(), result.calls());
	}

	private static ChatResponse withCalls(ChatResponse response, String text, List<ToolCall> calls) {
		if (calls.isEmpty()) {
			return response;
		}
		AssistantMessage message = response.message();
		List<ToolCall> all = new ArrayList<>(message.toolCalls());
		all.addAll(calls);
		return new ChatResponse(new AssistantMessage(text, all, message.reasoning(), message.refusal()),
				response.usage(), FinishReason.TOOL_CALLS, response.model());
	}

	/** The model name recorded in metrics: the one the request options name, else the model's. */
	private static String requestModel(ChatModel model, ChatRequest request) {
		String named = request.options().model();
		return (named != null) ? named : model.modelName();
	}

	/** Text pieces to the caller; reasoning pieces to the accumulator and the caller. */
	private static void forward(List<ThinkSplitter.Piece> pieces, ChatResponseAccumulator accumulator,
			TurnListener listener, ShownText shown) {
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning()) {
				accumulator.add(ChatChunk.reasoning(THINK_BLOCK_INDEX + piece.block(), piece.text()));
				if (listener.streaming()) {
					listener.onReasoning(piece.text());
				}
			}
			else if (listener.streaming()) {
				shown.showed();
				listener.onText(piece.text());
			}
		}
	}

	private static String text(List<ThinkSplitter.Piece> pieces) {
		if (pieces.size() == 1 && !pieces.get(0).reasoning()) {
			return pieces.get(0).text();
		}
		StringBuilder text = new StringBuilder();
		for (ThinkSplitter.Piece piece : pieces) {
			if (!piece.reasoning()) {
				text.append(piece.text());
			}
		}
		return text.toString();
	}

	/** A whole response's {@code <think>} blocks, moved from its text to its reasoning. */
	static ChatResponse splitThinking(ChatResponse response) {
		AssistantMessage message = response.message();
		if (!message.text().contains(ThinkSplitter.OPEN)) {
			return response;
		}
		List<ThinkSplitter.Piece> pieces = ThinkSplitter.split(message.text());
		List<Reasoning> reasoning = new ArrayList<>(message.reasoning());
		StringBuilder block = new StringBuilder();
		int current = -1;
		for (ThinkSplitter.Piece piece : pieces) {
			if (piece.reasoning()) {
				if (piece.block() != current && block.length() > 0) {
					reasoning.add(Reasoning.of(block.toString()));
					block.setLength(0);
				}
				current = piece.block();
				block.append(piece.text());
			}
		}
		if (block.length() > 0) {
			reasoning.add(Reasoning.of(block.toString()));
		}
		AssistantMessage split = new AssistantMessage(text(pieces), message.toolCalls(), reasoning, message.refusal());
		return new ChatResponse(split, response.usage(), response.finishReason(), response.model());
	}

	private void recordModelCall(ChatModel model, String requestModel, Usage usage, long start,
			@Nullable Throwable error) {
		this.metrics.modelCall(model.providerName(), requestModel, usage, System.nanoTime() - start, error);
	}

}
