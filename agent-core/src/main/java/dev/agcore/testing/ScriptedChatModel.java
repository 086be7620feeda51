package dev.agcore.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.Usage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatModel} that answers from a script instead of a network. Its
 * {@linkplain #script() script} is a queue of steps, one per request: a response (whose
 * stream is split into word-sized text chunks and several tool-call fragments, as a real
 * server would, so streaming code paths are exercised too), explicit chunks, an error
 * (such as a {@link dev.agcore.model.ModelException}) or any of those after a delay. When
 * the queue is empty the model's fallback answers: the function given to
 * {@link #answering}, or else an error naming the request. Records every request it
 * receives, for {@link #requests()} and
 * {@code dev.agcore.testing.assertj.AgentAssertions}.
 * <pre>{@code
 * ScriptedChatModel model = ScriptedChatModel.builder()
 *     .thenCallTool("get_weather", Map.of("city", "Paris"))
 *     .thenReply("Sunny in Paris")
 *     .build();
 * }</pre>
 * <p>
 * This is not a model: it is for tests, demos and benchmarks.
 */
public final class ScriptedChatModel implements ChatModel {

	private final Script script;

	private final String modelName;

	private final boolean recordRequests;

	private final Set<ModelCapability> capabilities;

	private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

	private ScriptedChatModel(Script script, String modelName, boolean recordRequests,
			Set<ModelCapability> capabilities) {
		this.script = script;
		this.modelName = modelName;
		this.recordRequests = recordRequests;
		this.capabilities = Collections.unmodifiableSet(EnumSet.copyOf(capabilities));
	}

	/**
	 * Start a model whose script is built step by step.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * A model that answers each request with the next response; fails when the script is
	 * exhausted.
	 * @param responses the responses, in order
	 * @return the model
	 */
	public static ScriptedChatModel replaying(ChatResponse... responses) {
		Builder builder = builder();
		for (ChatResponse response : responses) {
			builder.thenRespond(response);
		}
		return builder.build();
	}

	/**
	 * A model that computes each response from the request (once the steps added to its
	 * {@link #script()}, if any, are used up).
	 * @param script the function; may throw to simulate a failure
	 * @return the model
	 */
	public static ScriptedChatModel answering(Function<ChatRequest, ChatResponse> script) {
		return builder().otherwise(Objects.requireNonNull(script, "'script' must not be null")).build();
	}

	/**
	 * Return a copy that reports another model name, for metrics. The copy shares this
	 * model's script.
	 * @param modelName the model name
	 * @return a new model with the same script
	 */
	public ScriptedChatModel withModelName(String modelName) {
		return new ScriptedChatModel(this.script, modelName, this.recordRequests, this.capabilities);
	}

	/**
	 * Return a copy that reports other capabilities, e.g. native structured output. The
	 * copy shares this model's script.
	 * @param capabilities the capabilities
	 * @return a new model with the same script
	 */
	public ScriptedChatModel withCapabilities(ModelCapability... capabilities) {
		Set<ModelCapability> set = EnumSet.noneOf(ModelCapability.class);
		set.addAll(List.of(capabilities));
		return new ScriptedChatModel(this.script, this.modelName, this.recordRequests, set);
	}

	/**
	 * Return a copy that does not record requests (for long-running use, such as a demo
	 * app or a benchmark). The copy shares this model's script.
	 * @return a new model with the same script
	 */
	public ScriptedChatModel withoutRecording() {
		return new ScriptedChatModel(this.script, this.modelName, false, this.capabilities);
	}

	/** Convenience: a final text answer. */
	public static ChatResponse text(String text) {
		return new ChatResponse(AssistantMessage.of(text), Usage.of(10, Math.max(1, text.length() / 4)),
				FinishReason.STOP, "scripted");
	}

	/** Convenience: a response that asks for the given tool calls. */
	public static ChatResponse toolCalls(ToolCall... calls) {
		return new ChatResponse(AssistantMessage.of(List.of(calls)), Usage.of(10, 5), FinishReason.TOOL_CALLS,
				"scripted");
	}

	/**
	 * Return the live script: steps added to it answer the next requests, before the
	 * fallback. This is how a test programs a model it did not build, such as the one
	 * {@code @AgentTest} provides.
	 * @return the script
	 */
	public Script script() {
		return this.script;
	}

	/**
	 * Return the requests received so far, oldest first.
	 * @return the requests
	 */
	public List<ChatRequest> requests() {
		return Collections.unmodifiableList(this.requests);
	}

	/**
	 * Return the last request received.
	 * @return the request
	 * @throws AssertionError if no request was received (or recording is off)
	 */
	public ChatRequest lastRequest() {
		if (this.requests.isEmpty()) {
			throw new AssertionError("The scripted model received no request"
					+ (this.recordRequests ? "" : " (it does not record requests)"));
		}
		return this.requests.get(this.requests.size() - 1);
	}

	/**
	 * Forget the requests received and the steps not used yet; the fallback stays. For a
	 * model shared by several tests.
	 */
	public void reset() {
		this.requests.clear();
		this.script.clear();
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		return Mono.defer(() -> next(request).call(request));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		return Flux.defer(() -> next(request).stream(request));
	}

	private ScriptStep next(ChatRequest request) {
		if (this.recordRequests) {
			this.requests.add(request);
		}
		return this.script.next(request);
	}

	@Override
	public String providerName() {
		return "scripted";
	}

	@Override
	public String modelName() {
		return this.modelName;
	}

	@Override
	public Set<ModelCapability> capabilities() {
		return this.capabilities;
	}

	/**
	 * Split a response the way a server streams it: reasoning, word-sized text chunks,
	 * each tool call in two fragments, the finish reason and the usage.
	 * @param response the response
	 * @return the chunks; folding them gives the response back
	 */
	public static List<ChatChunk> chunks(ChatResponse response) {
		List<ChatChunk> chunks = new ArrayList<>();
		List<Reasoning> reasoning = response.message().reasoning();
		for (int i = 0; i < reasoning.size(); i++) {
			Reasoning block = reasoning.get(i);
			String thought = block.text();
			int half = thought.length() / 2;
			chunks.add(ChatChunk.reasoning(i, thought.substring(0, half)));
			chunks.add(new ChatChunk("", List.of(), null, null, null, new ChatChunk.ReasoningDelta(i,
					thought.substring(half), block.signature(), block.redactedData()), ""));
		}
		String text = response.message().text();
		int start = 0;
		while (start < text.length()) {
			int space = text.indexOf(' ', start);
			int end = (space < 0) ? text.length() : space + 1;
			chunks.add(ChatChunk.text(text.substring(start, end)));
			start = end;
		}
		List<ToolCall> calls = response.message().toolCalls();
		for (int i = 0; i < calls.size(); i++) {
			ToolCall call = calls.get(i);
			String arguments = call.arguments();
			int half = arguments.length() / 2;
			chunks.add(toolFragment(i, call.id(), call.name(), arguments.substring(0, half)));
			chunks.add(toolFragment(i, null, null, arguments.substring(half)));
		}
		chunks.add(new ChatChunk("", List.of(), null, response.finishReason(), response.model()));
		if (!response.usage().isEmpty()) {
			chunks.add(new ChatChunk("", List.of(), response.usage(), null, null));
		}
		return chunks;
	}

	private static ChatChunk toolFragment(int index, @Nullable String id, @Nullable String name, String arguments) {
		return new ChatChunk("", List.of(new ChatChunk.ToolCallDelta(index, id, name, arguments)), null, null, null);
	}

	/**
	 * Builds a {@link ScriptedChatModel}: the steps of its script, its fallback, its name
	 * and capabilities.
	 */
	public static final class Builder extends ScriptSteps<Builder> {

		private final List<ScriptStep> steps = new ArrayList<>();

		private @Nullable Function<ChatRequest, ChatResponse> otherwise;

		private String modelName = "scripted";

		private Set<ModelCapability> capabilities = EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING);

		private Builder() {
		}

		@Override
		void add(ScriptStep step) {
			this.steps.add(step);
		}

		/**
		 * Answer with a function of the request once the steps are used up, instead of
		 * failing.
		 * @param answer the function; may throw to simulate a failure
		 * @return this
		 */
		public Builder otherwise(Function<ChatRequest, ChatResponse> answer) {
			this.otherwise = answer;
			return this;
		}

		/**
		 * Set the model name reported for metrics; {@code scripted} by default.
		 * @param modelName the name
		 * @return this
		 */
		public Builder modelName(String modelName) {
			this.modelName = modelName;
			return this;
		}

		/**
		 * Set the capabilities reported; tools and streaming by default.
		 * @param capabilities the capabilities
		 * @return this
		 */
		public Builder capabilities(ModelCapability... capabilities) {
			Set<ModelCapability> set = EnumSet.noneOf(ModelCapability.class);
			set.addAll(List.of(capabilities));
			this.capabilities = set;
			return this;
		}

		/**
		 * Build the model.
		 * @return the model
		 */
		public ScriptedChatModel build() {
			Script script = new Script(this.otherwise);
			this.steps.forEach(script::add);
			return new ScriptedChatModel(script, this.modelName, true, this.capabilities);
		}

	}

	/**
	 * The live script of a model: a thread-safe queue of steps, one per request, and the
	 * fallback used when it is empty.
	 */
	public static final class Script extends ScriptSteps<Script> {

		private final Queue<ScriptStep> steps = new ConcurrentLinkedQueue<>();

		// one step for every request the fallback answers: nothing allocated per request
		private final @Nullable ScriptStep otherwise;

		private final AtomicInteger received = new AtomicInteger();

		private Script(@Nullable Function<ChatRequest, ChatResponse> otherwise) {
			this.otherwise = (otherwise != null) ? ScriptStep.answer(otherwise) : null;
		}

		@Override
		void add(ScriptStep step) {
			this.steps.add(step);
		}

		/**
		 * Return how many steps have not been used yet.
		 * @return the number of steps left
		 */
		public int remaining() {
			return this.steps.size();
		}

		void clear() {
			this.steps.clear();
			this.received.set(0);
		}

		ScriptStep next(ChatRequest request) {
			int number = this.received.incrementAndGet();
			ScriptStep step = this.steps.poll();
			if (step != null) {
				return step;
			}
			if (this.otherwise != null) {
				return this.otherwise;
			}
			return new ScriptStep(Duration.ZERO, null, List.of(), new IllegalStateException(
					"Scripted model has no response left for request #" + number + " (last message: "
							+ lastMessage(request) + "); add one with script().thenReply(...) or the builder"));
		}

		private static String lastMessage(ChatRequest request) {
			List<Message> messages = request.messages();
			if (messages.isEmpty()) {
				return "none";
			}
			Message last = messages.get(messages.size() - 1);
			String text = last.text();
			String shown = (text.length() > 80) ? text.substring(0, 80) + "..." : text;
			return last.role().name().toLowerCase(Locale.ROOT) + " \"" + shown + "\"";
		}

	}

}
