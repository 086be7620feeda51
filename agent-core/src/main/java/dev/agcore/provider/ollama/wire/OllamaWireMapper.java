package dev.agcore.provider.ollama.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatChunk.ReasoningDelta;
import dev.agcore.model.ChatChunk.ToolCallDelta;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps between the library's types and Ollama's chat wire records. Thread-safe; the
 * state of one stream is kept in a {@link StreamState}.
 */
public final class OllamaWireMapper {

	// "-1" and "300" are seconds to Ollama only as JSON numbers: as text it wants a unit
	private static final Pattern WHOLE_SECONDS = Pattern.compile("-?\\d+");

	private final String provider;

	private final JsonMapper jsonMapper;

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 * @param jsonMapper the mapper for tool arguments
	 */
	public OllamaWireMapper(String provider, JsonMapper jsonMapper) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
	}

	/**
	 * Build a request body.
	 * @param messages the conversation
	 * @param tools the tools; none are sent when empty or when the tool choice is
	 * {@code NONE}
	 * @param options the request's options, already merged with the defaults
	 * @param model the model
	 * @param keepAlive the keep-alive, null for the server's default
	 * @param stream whether to stream
	 * @return the request body
	 * @throws ModelRequestException if a message holds what Ollama cannot take
	 */
	public OllamaChatRequest toRequest(List<Message> messages, List<ToolSpec> tools, ChatOptions options,
			String model, @Nullable String keepAlive, boolean stream) {
		List<OllamaMessage> wireMessages = new ArrayList<>(messages.size());
		for (Message message : messages) {
			wireMessages.add(toWire(message));
		}
		// Ollama has no tool choice: "none" is honoured by offering no tools, "required"
		// and a named tool cannot be enforced and are left to the prompt
		List<OllamaTool> wireTools = null;
		boolean noTools = options.toolChoice() != null && options.toolChoice().mode() == ToolChoice.Mode.NONE;
		if (!tools.isEmpty() && !noTools) {
			wireTools = new ArrayList<>(tools.size());
			for (ToolSpec tool : tools) {
				wireTools.add(OllamaTool.of(tool.name(), tool.description(), tool.inputSchema()));
			}
		}
		return new OllamaChatRequest(model, wireMessages, wireTools, stream, format(options.responseFormat()),
				sampling(options), think(options), keepAlive(keepAlive));
	}

	private OllamaMessage toWire(Message message) {
		if (message instanceof SystemMessage system) {
			return new OllamaMessage("system", system.text(), null, null, null, null, null);
		}
		if (message instanceof UserMessage user) {
			return new OllamaMessage("user", user.text(), null, images(user.media()), null, null, null);
		}
		if (message instanceof AssistantMessage assistant) {
			List<OllamaToolCall> calls = null;
			if (assistant.hasToolCalls()) {
				calls = new ArrayList<>(assistant.toolCalls().size());
				for (int i = 0; i < assistant.toolCalls().size(); i++) {
					ToolCall call = assistant.toolCalls().get(i);
					calls.add(new OllamaToolCall(call.id(), "function",
							new OllamaToolCall.Function(i, call.name(), arguments(call, i))));
				}
			}
			String thinking = assistant.reasoningText();
			return new OllamaMessage("assistant", assistant.text(), thinking.isEmpty() ? null : thinking, null, calls,
					null, null);
		}
		ToolResultMessage result = (ToolResultMessage) message;
		return new OllamaMessage("tool", result.text(), null, null, null, result.toolName(), result.toolCallId());
	}

	private @Nullable List<String> images(List<Media> media) {
		if (media.isEmpty()) {
			return null;
		}
		List<String> images = new ArrayList<>(media.size());
		for (Media item : media) {
			if (!item.isImage()) {
				throw new ModelRequestException(this.provider, 0,
						this.provider + " accepts only images in messages, not " + item.mediaType()
								+ (item.isPdf() ? " (extract the PDF's text instead)" : ""));
			}
			if (item.url() != null) {
				throw new ModelRequestException(this.provider, 0, this.provider
						+ " needs the bytes of an image, not a URL: download it and attach it with Media.bytes");
			}
			images.add(item.base64());
		}
		return images;
	}

	// Ollama takes the arguments as an object, where the library keeps the model's text
	private JsonNode arguments(ToolCall call, int position) {
		try {
			JsonNode arguments = this.jsonMapper.readTree(call.arguments());
			if (arguments != null && arguments.isObject()) {
				return arguments;
			}
		}
		catch (JacksonException ex) {
			// reported below
		}
		throw new ModelRequestException(this.provider, 0, "Tool call #" + (position + 1) + " ('" + call.name()
				+ "') has arguments that are not a JSON object, which " + this.provider + " requires");
	}

	private static @Nullable Object format(@Nullable ResponseFormat format) {
		if (format == null) {
			return null;
		}
		return switch (format.type()) {
			case JSON_SCHEMA -> format.schema();
			case JSON_OBJECT -> "json";
			case TEXT -> null;
		};
	}

	private static @Nullable Map<String, Object> sampling(ChatOptions options) {
		Map<String, Object> sampling = new LinkedHashMap<>();
		putIfSet(sampling, "temperature", options.temperature());
		putIfSet(sampling, "top_p", options.topP());
		putIfSet(sampling, "num_predict", options.maxTokens());
		if (!options.stop().isEmpty()) {
			sampling.put("stop", options.stop());
		}
		putIfSet(sampling, "seed", options.seed());
		putIfSet(sampling, "frequency_penalty", options.frequencyPenalty());
		putIfSet(sampling, "presence_penalty", options.presencePenalty());
		return sampling.isEmpty() ? null : sampling;
	}

	private static void putIfSet(Map<String, Object> map, String key, @Nullable Object value) {
		if (value != null) {
			map.put(key, value);
		}
	}

	/**
	 * Map the reasoning options to {@code think}: a reasoning effort of {@code low},
	 * {@code medium} or {@code high} is sent as that level (models with levels, such as
	 * gpt-oss, apply it; others think), {@code none} as {@code false}, any other effort as
	 * {@code true}; without an effort, a thinking budget above 0 is {@code true} and 0 is
	 * {@code false} (Ollama has no budget). Nothing is sent otherwise: the model's default.
	 */
	static @Nullable Object think(ChatOptions options) {
		String effort = options.reasoningEffort();
		if (effort != null && !effort.isBlank()) {
			String level = effort.strip().toLowerCase(Locale.ROOT);
			return switch (level) {
				case "low", "medium", "high" -> level;
				case "none" -> Boolean.FALSE;
				default -> Boolean.TRUE;
			};
		}
		Integer budget = options.thinkingBudget();
		if (budget != null) {
			return budget > 0;
		}
		return null;
	}

	private static @Nullable Object keepAlive(@Nullable String keepAlive) {
		if (keepAlive == null || keepAlive.isBlank()) {
			return null;
		}
		String value = keepAlive.strip();
		return WHOLE_SECONDS.matcher(value).matches() ? Long.valueOf(value) : value;
	}

	/**
	 * Map a non-streamed response.
	 * @param response the response body
	 * @return the response
	 * @throws ModelException if the body carries an error or no message
	 */
	public ChatResponse toResponse(OllamaChatResponse response) {
		if (response.error() != null && !response.error().isNull()) {
			throw toException(response.error());
		}
		OllamaMessage message = response.message();
		if (message == null) {
			throw new ModelResponseException(this.provider, this.provider + " returned a response without a message");
		}
		List<ToolCall> calls = new ArrayList<>();
		if (message.toolCalls() != null) {
			for (OllamaToolCall call : message.toolCalls()) {
				calls.add(toToolCall(call, calls.size()));
			}
		}
		List<Reasoning> reasoning = (message.thinking() != null && !message.thinking().isEmpty())
				? List.of(Reasoning.of(message.thinking())) : List.of();
		FinishReason reason = calls.isEmpty() ? finishReason(response.doneReason()) : FinishReason.TOOL_CALLS;
		return new ChatResponse(new AssistantMessage(message.content(), calls, reasoning, null), usage(response),
				reason, response.model());
	}

	private ToolCall toToolCall(OllamaToolCall call, int position) {
		OllamaToolCall.Function function = call.function();
		if (function == null || function.name() == null || function.name().isEmpty()) {
			throw new ModelResponseException(this.provider,
					this.provider + " returned a tool call without a function name at index " + position);
		}
		return new ToolCall(callId(call, position), function.name(), argumentsText(function.arguments()));
	}

	// older Ollama versions give no ids, newer ones optionally
	private static String callId(OllamaToolCall call, int position) {
		return (call.id() != null && !call.id().isBlank()) ? call.id() : "call_" + position;
	}

	private String argumentsText(@Nullable JsonNode arguments) {
		if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
			return "{}";
		}
		// some servers in front of Ollama pass OpenAI's JSON text through
		if (arguments.isString()) {
			return arguments.stringValue();
		}
		return this.jsonMapper.writeValueAsString(arguments);
	}

	/**
	 * Map one streamed line.
	 * @param line the line
	 * @param state the stream's state
	 * @return the chunk, or null when the line carries nothing
	 * @throws ModelException if the line carries an error
	 */
	public @Nullable ChatChunk toChunk(OllamaChatResponse line, StreamState state) {
		if (line.error() != null && !line.error().isNull()) {
			throw toException(line.error());
		}
		OllamaMessage message = line.message();
		String text = "";
		ReasoningDelta reasoning = null;
		List<ToolCallDelta> deltas = List.of();
		if (message != null) {
			text = (message.content() != null) ? message.content() : "";
			if (message.thinking() != null && !message.thinking().isEmpty()) {
				reasoning = new ReasoningDelta(0, message.thinking(), null, null);
			}
			if (message.toolCalls() != null && !message.toolCalls().isEmpty()) {
				deltas = new ArrayList<>(message.toolCalls().size());
				// each call arrives whole, in its own line or with others: it gets the next index
				for (OllamaToolCall call : message.toolCalls()) {
					int index = state.toolCalls++;
					ToolCall whole = toToolCall(call, index);
					deltas.add(new ToolCallDelta(index, whole.id(), whole.name(), whole.arguments()));
				}
			}
		}
		if (!line.last()) {
			if (text.isEmpty() && reasoning == null && deltas.isEmpty()) {
				return null;
			}
			return new ChatChunk(text, deltas, null, null, line.model(), reasoning, "");
		}
		FinishReason reason = (state.toolCalls > 0) ? FinishReason.TOOL_CALLS : finishReason(line.doneReason());
		return new ChatChunk(text, deltas, usage(line), reason, line.model(), reasoning, "");
	}

	private static FinishReason finishReason(@Nullable String doneReason) {
		if (doneReason == null || doneReason.isEmpty()) {
			return FinishReason.STOP;
		}
		return switch (doneReason) {
			case "stop" -> FinishReason.STOP;
			case "length" -> FinishReason.LENGTH;
			default -> FinishReason.OTHER;
		};
	}

	private static Usage usage(OllamaChatResponse response) {
		if (response.promptEvalCount() == null && response.evalCount() == null) {
			return Usage.EMPTY;
		}
		long input = (response.promptEvalCount() != null) ? response.promptEvalCount() : 0;
		long output = (response.evalCount() != null) ? response.evalCount() : 0;
		return Usage.of(input, output);
	}

	/**
	 * Map an error sent with a successful status, in a body or mid-stream.
	 * @param error the {@code error} value
	 * @return the exception
	 */
	public ModelException toException(JsonNode error) {
		String message;
		if (error.isObject() && error.path("message").isString()) {
			message = error.path("message").stringValue();
		}
		else {
			message = error.isString() ? error.stringValue() : error.toString();
		}
		return new ModelServerException(this.provider, 0, this.provider + " reported an error: " + message);
	}

	/**
	 * What one stream has produced so far. Not thread-safe: one per stream, used by one
	 * signal at a time.
	 */
	public static final class StreamState {

		private int toolCalls;

		/**
		 * Return how many tool calls the stream has carried.
		 * @return the count
		 */
		public int toolCalls() {
			return this.toolCalls;
		}

	}

}
