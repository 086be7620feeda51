package dev.agcore.provider.openai.wire;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatChunk.ToolCallDelta;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelCapability;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRequestException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ResponseFormat;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps between the library's types and the OpenAI wire records. Thread-safe.
 */
public final class OpenAiWireMapper {

	private static final ChatCompletionRequest.StreamOptions INCLUDE_USAGE = new ChatCompletionRequest.StreamOptions(
			true);

	private final String provider;

	private final Dialect quirks;

	private final Set<ModelCapability> capabilities;

	/**
	 * Create a mapper for a server without quirks that can do everything.
	 * @param provider the provider name used in exceptions
	 */
	public OpenAiWireMapper(String provider) {
		this(provider, Dialect.COMPATIBLE, EnumSet.allOf(ModelCapability.class));
	}

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 * @param quirks how the server departs from OpenAI's API
	 * @param capabilities what the server can do; media it cannot take fail the request
	 */
	public OpenAiWireMapper(String provider, Dialect quirks, Set<ModelCapability> capabilities) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
		this.quirks = Objects.requireNonNull(quirks, "'quirks' must not be null");
		this.capabilities = Set.copyOf(capabilities);
	}

	/**
	 * Build a request body.
	 * @param messages the conversation
	 * @param tools the tools; no {@code tools} key is sent when empty
	 * @param model the model
	 * @param options the options, defaults already applied; null components are left to
	 * the server
	 * @param stream whether to stream
	 * @return the request body
	 * @throws ModelRequestException if a message holds media the server cannot take
	 */
	public ChatCompletionRequest toRequest(List<Message> messages, List<ToolSpec> tools, String model,
			ChatOptions options, boolean stream) {
		List<WireMessage> wireMessages = new ArrayList<>(messages.size());
		for (Message message : messages) {
			wireMessages.add(toWire(message));
		}
		List<WireTool> wireTools = null;
		if (!tools.isEmpty()) {
			wireTools = new ArrayList<>(tools.size());
			for (ToolSpec tool : tools) {
				wireTools.add(WireTool.of(tool.name(), tool.description(), tool.inputSchema()));
			}
		}
		Integer maxTokens = options.maxTokens();
		Long seed = options.seed();
		return new ChatCompletionRequest(model, wireMessages, wireTools, toolChoice(options.toolChoice()),
				options.temperature(), options.topP(), this.quirks.maxCompletionTokens() ? null : maxTokens,
				this.quirks.maxCompletionTokens() ? maxTokens : null,
				options.stop().isEmpty() ? null : options.stop(), this.quirks.randomSeed() ? null : seed,
				this.quirks.randomSeed() ? seed : null, options.frequencyPenalty(), options.presencePenalty(),
				options.reasoningEffort(), responseFormat(options.responseFormat()), stream ? true : null,
				(stream && this.quirks.streamUsage()) ? INCLUDE_USAGE : null);
	}

	private static @Nullable Object toolChoice(@Nullable ToolChoice choice) {
		if (choice == null) {
			return null;
		}
		return switch (choice.mode()) {
			case AUTO -> "auto";
			case NONE -> "none";
			case REQUIRED -> "required";
			case TOOL -> new ChatCompletionRequest.NamedToolChoice("function",
					new ChatCompletionRequest.NamedToolChoice.Name(choice.toolName()));
		};
	}

	private static @Nullable WireResponseFormat responseFormat(@Nullable ResponseFormat format) {
		if (format == null) {
			return null;
		}
		return switch (format.type()) {
			case TEXT -> new WireResponseFormat("text", null);
			case JSON_OBJECT -> new WireResponseFormat("json_object", null);
			case JSON_SCHEMA -> jsonSchema(format);
		};
	}

	private static WireResponseFormat jsonSchema(ResponseFormat format) {
		ObjectNode schema = Objects.requireNonNull(format.schema());
		if (format.strict()) {
			ObjectNode tightened = StrictSchemas.tighten(schema);
			if (StrictSchemas.isStrict(tightened)) {
				return new WireResponseFormat("json_schema",
						new WireResponseFormat.JsonSchema(format.name(), tightened, true));
			}
		}
		return new WireResponseFormat("json_schema", new WireResponseFormat.JsonSchema(format.name(), schema, false));
	}

	private WireMessage toWire(Message message) {
		if (message instanceof SystemMessage system) {
			return WireMessage.of((system.developer() && this.quirks.developerRole()) ? "developer" : "system",
					system.text());
		}
		if (message instanceof UserMessage user) {
			Object content = user.hasMedia() ? contentParts(user) : user.text();
			return new WireMessage("user", content, null, null, user.name(), null, null, null);
		}
		if (message instanceof AssistantMessage assistant) {
			// reasoning is the model's own; servers ignore or reject it, except DeepSeek,
			// which requires it back on turns that called tools
			if (!assistant.hasToolCalls()) {
				return WireMessage.of("assistant", assistant.text());
			}
			List<WireToolCall> calls = new ArrayList<>(assistant.toolCalls().size());
			for (ToolCall call : assistant.toolCalls()) {
				calls.add(WireToolCall.of(call.id(), call.name(), call.arguments()));
			}
			String content = assistant.text().isEmpty() ? null : assistant.text();
			String reasoning = (this.quirks.sendReasoningContent() && assistant.hasReasoning())
					? assistant.reasoningText() : null;
			return new WireMessage("assistant", content, calls, null, null, null, reasoning, null);
		}
		ToolResultMessage result = (ToolResultMessage) message;
		return new WireMessage("tool", result.text(), null, result.toolCallId());
	}

	private List<WireContentPart> contentParts(UserMessage user) {
		List<WireContentPart> parts = new ArrayList<>(user.media().size() + 1);
		if (!user.text().isEmpty()) {
			parts.add(WireContentPart.text(user.text()));
		}
		for (Media media : user.media()) {
			if (media.isImage()) {
				require(ModelCapability.IMAGES, "images");
				parts.add(WireContentPart.image((media.url() != null) ? media.url().toString() : dataUrl(media)));
			}
			else if (media.isPdf()) {
				require(ModelCapability.PDF, "PDF documents");
				if (media.url() != null) {
					throw new ModelRequestException(this.provider, 0,
							this.provider + " takes PDF documents as bytes, not as a URL");
				}
				parts.add(WireContentPart.file(media.fileName(), dataUrl(media)));
			}
			else {
				throw new ModelRequestException(this.provider, 0,
						this.provider + " cannot take media of type " + media.mediaType() + " in a user message");
			}
		}
		return parts;
	}

	private void require(ModelCapability capability, String what) {
		if (!this.capabilities.contains(capability)) {
			throw new ModelRequestException(this.provider, 0,
					this.provider + " is not configured to take " + what + " in user messages");
		}
	}

	private static String dataUrl(Media media) {
		return "data:" + media.mediaType() + ";base64," + media.base64();
	}

	/**
	 * Map a non-streamed response.
	 * @param response the response body
	 * @return the response
	 * @throws ModelException if the body carries an error or no choice
	 */
	public ChatResponse toResponse(ChatCompletionResponse response) {
		if (response.error() != null) {
			throw toException(response.error());
		}
		if (response.choices() == null || response.choices().isEmpty() || response.choices().get(0).message() == null) {
			throw new ModelResponseException(this.provider, this.provider + " returned a response without a message");
		}
		ChatCompletionResponse.Choice choice = response.choices().get(0);
		WireMessage message = choice.message();
		List<ToolCall> calls = new ArrayList<>();
		if (message.toolCalls() != null) {
			for (int i = 0; i < message.toolCalls().size(); i++) {
				calls.add(toToolCall(message.toolCalls().get(i), i));
			}
		}
		String reasoning = reasoning(message);
		List<Reasoning> blocks = (reasoning != null && !reasoning.isEmpty()) ? List.of(Reasoning.of(reasoning))
				: List.of();
		return new ChatResponse(new AssistantMessage(message.text(), calls, blocks, message.refusal()),
				toUsage(response.usage()), FinishReason.fromOpenAi(choice.finishReason()), response.model());
	}

	// DeepSeek, Qwen and vLLM say reasoning_content, OpenRouter says reasoning
	private static @Nullable String reasoning(WireMessage message) {
		return (message.reasoningContent() != null) ? message.reasoningContent() : message.reasoning();
	}

	private ToolCall toToolCall(WireToolCall call, int position) {
		WireToolCall.Function function = call.function();
		if (function == null || function.name() == null || function.name().isEmpty()) {
			throw new ModelResponseException(this.provider,
					this.provider + " returned a tool call without a function name at index " + position);
		}
		String id = (call.id() != null && !call.id().isEmpty()) ? call.id() : "call_" + position;
		return new ToolCall(id, function.name(), function.arguments());
	}

	/**
	 * Map one streamed chunk.
	 * @param chunk the chunk
	 * @return the chunk, or null when it carries nothing (such as the first chunk, which
	 * only announces the role)
	 * @throws ModelException if the chunk carries an error
	 */
	public @Nullable ChatChunk toChunk(ChatCompletionChunk chunk) {
		if (chunk.error() != null) {
			throw toException(chunk.error());
		}
		String text = "";
		String refusal = "";
		String reasoning = "";
		List<ToolCallDelta> deltas = List.of();
		FinishReason finishReason = null;
		if (chunk.choices() != null && !chunk.choices().isEmpty()) {
			ChatCompletionChunk.Choice choice = chunk.choices().get(0);
			WireMessage delta = choice.delta();
			if (delta != null) {
				text = (delta.text() != null) ? delta.text() : "";
				refusal = (delta.refusal() != null) ? delta.refusal() : "";
				String reasoningDelta = reasoning(delta);
				reasoning = (reasoningDelta != null) ? reasoningDelta : "";
				deltas = toDeltas(delta.toolCalls());
			}
			finishReason = (choice.finishReason() != null) ? FinishReason.fromOpenAi(choice.finishReason()) : null;
		}
		Usage usage = (chunk.usage() != null) ? toUsage(chunk.usage()) : null;
		if (text.isEmpty() && deltas.isEmpty() && usage == null && finishReason == null && refusal.isEmpty()
				&& reasoning.isEmpty()) {
			return null;
		}
		// these servers give one reasoning text per message: one block, index 0
		ChatChunk.ReasoningDelta reasoningDelta = reasoning.isEmpty() ? null
				: new ChatChunk.ReasoningDelta(0, reasoning, null, null);
		return new ChatChunk(text, deltas, usage, finishReason, chunk.model(), reasoningDelta, refusal);
	}

	private List<ToolCallDelta> toDeltas(@Nullable List<WireToolCall> calls) {
		if (calls == null || calls.isEmpty()) {
			return List.of();
		}
		List<ToolCallDelta> deltas = new ArrayList<>(calls.size());
		for (int i = 0; i < calls.size(); i++) {
			WireToolCall call = calls.get(i);
			// servers that omit the index send one call per chunk, in order of position
			int index = (call.index() != null) ? call.index() : i;
			WireToolCall.Function function = call.function();
			deltas.add(new ToolCallDelta(index, call.id(), (function != null) ? function.name() : null,
					(function != null) ? function.arguments() : null));
		}
		return deltas;
	}

	private Usage toUsage(@Nullable WireUsage usage) {
		if (usage == null) {
			return Usage.EMPTY;
		}
		long input = (usage.promptTokens() != null) ? usage.promptTokens() : 0;
		long output = (usage.completionTokens() != null) ? usage.completionTokens() : 0;
		long total = (usage.totalTokens() != null) ? usage.totalTokens() : input + output;
		long cached = 0;
		if (usage.promptTokensDetails() != null && usage.promptTokensDetails().cachedTokens() != null) {
			cached = usage.promptTokensDetails().cachedTokens();
		}
		else if (usage.promptCacheHitTokens() != null) {
			cached = usage.promptCacheHitTokens();
		}
		long reasoning = 0;
		if (usage.completionTokensDetails() != null && usage.completionTokensDetails().reasoningTokens() != null) {
			reasoning = usage.completionTokensDetails().reasoningTokens();
		}
		Usage result = new Usage(input, output, total);
		return (cached == 0 && reasoning == 0) ? result : result.withDetails(cached, 0, reasoning);
	}

	/**
	 * Map an error object sent with a successful status, in a body or mid-stream.
	 * @param error the error
	 * @return the exception
	 */
	public ModelException toException(WireError error) {
		String message = (error.message() != null) ? error.message() : String.valueOf(error.type());
		return new ModelServerException(this.provider, 0, this.provider + " reported an error: " + message);
	}

	/**
	 * How the server departs from OpenAI's API, as the mapper needs it (the public form is
	 * {@code OpenAiQuirks}, which this package may not depend on).
	 *
	 * @param developerRole send developer instructions with the {@code developer} role
	 * @param maxCompletionTokens send {@code max_completion_tokens}, not
	 * {@code max_tokens}
	 * @param streamUsage send {@code stream_options.include_usage} in streams
	 * @param randomSeed send {@code random_seed}, not {@code seed}
	 * @param sendReasoningContent send reasoning back on tool-calling assistant messages
	 */
	public record Dialect(boolean developerRole, boolean maxCompletionTokens, boolean streamUsage, boolean randomSeed,
			boolean sendReasoningContent) {

		/** Any OpenAI-compatible server. */
		public static final Dialect COMPATIBLE = new Dialect(false, false, true, false, false);

	}

}
