package dev.agcore.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.agcore.message.AssistantMessage;
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
 * A {@link ChatModel} that answers from a script instead of a network: either a fixed
 * sequence of responses or a function of the request. Its stream splits each response
 * into word-sized text chunks and several tool-call fragments, as a real server would,
 * so streaming code paths are exercised too. Records every request it receives.
 * <p>
 * This is not a model: it is for tests, demos and benchmarks.
 */
public final class ScriptedChatModel implements ChatModel {

	private final Function<ChatRequest, ChatResponse> script;

	private final String modelName;

	private final boolean recordRequests;

	private final Set<ModelCapability> capabilities;

	private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

	private ScriptedChatModel(Function<ChatRequest, ChatResponse> script, String modelName, boolean recordRequests) {
		this(script, modelName, recordRequests, EnumSet.of(ModelCapability.TOOLS, ModelCapability.STREAMING));
	}

	private ScriptedChatModel(Function<ChatRequest, ChatResponse> script, String modelName, boolean recordRequests,
			Set<ModelCapability> capabilities) {
		this.script = script;
		this.modelName = modelName;
		this.recordRequests = recordRequests;
		this.capabilities = Collections.unmodifiableSet(EnumSet.copyOf(capabilities));
	}

	/**
	 * A model that answers each request with the next response; fails when the script is
	 * exhausted.
	 * @param responses the responses, in order
	 * @return the model
	 */
	public static ScriptedChatModel replaying(ChatResponse... responses) {
		Queue<ChatResponse> queue = new ConcurrentLinkedQueue<>(List.of(responses));
		return new ScriptedChatModel((request) -> {
			ChatResponse next = queue.poll();
			if (next == null) {
				throw new IllegalStateException("Scripted model has no response left for request #"
						+ (responses.length + 1));
			}
			return next;
		}, "scripted", true);
	}

	/**
	 * A model that computes each response from the request.
	 * @param script the function; may throw to simulate a failure
	 * @return the model
	 */
	public static ScriptedChatModel answering(Function<ChatRequest, ChatResponse> script) {
		return new ScriptedChatModel(Objects.requireNonNull(script, "'script' must not be null"), "scripted", true);
	}

	/**
	 * Return a copy that reports another model name, for metrics.
	 * @param modelName the model name
	 * @return a new model with the same script
	 */
	public ScriptedChatModel withModelName(String modelName) {
		return new ScriptedChatModel(this.script, modelName, this.recordRequests, this.capabilities);
	}

	/**
	 * Return a copy that reports other capabilities, e.g. native structured output.
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
	 * app or a benchmark).
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
	 * Return the requests received so far, oldest first.
	 * @return the requests
	 */
	public List<ChatRequest> requests() {
		return Collections.unmodifiableList(this.requests);
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		return Mono.fromSupplier(() -> respond(request));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		return Mono.fromSupplier(() -> respond(request)).flatMapIterable(ScriptedChatModel::chunks);
	}

	private ChatResponse respond(ChatRequest request) {
		if (this.recordRequests) {
			this.requests.add(request);
		}
		return this.script.apply(request);
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

	/** Split a response the way a server streams it. */
	static List<ChatChunk> chunks(ChatResponse response) {
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

}
