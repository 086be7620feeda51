package dev.agcore.provider.openai.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatChunk.ToolCallDelta;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.Usage;
import dev.agcore.tool.ToolSpec;
import org.jspecify.annotations.Nullable;

/**
 * Maps between the library's types and the OpenAI wire records. Thread-safe.
 */
public final class OpenAiWireMapper {

	private static final ChatCompletionRequest.StreamOptions INCLUDE_USAGE = new ChatCompletionRequest.StreamOptions(
			true);

	private final String provider;

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 */
	public OpenAiWireMapper(String provider) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
	}

	/**
	 * Build a request body.
	 * @param messages the conversation
	 * @param tools the tools; no {@code tools} key is sent when empty
	 * @param model the model
	 * @param temperature the temperature, or null to leave it to the server
	 * @param maxTokens the token limit, or null to leave it to the server
	 * @param stream whether to stream (with usage in the last chunk)
	 * @return the request body
	 */
	public ChatCompletionRequest toRequest(List<Message> messages, List<ToolSpec> tools, String model,
			@Nullable Double temperature, @Nullable Integer maxTokens, boolean stream) {
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
		return new ChatCompletionRequest(model, wireMessages, wireTools, temperature, maxTokens, stream ? true : null,
				stream ? INCLUDE_USAGE : null);
	}

	private WireMessage toWire(Message message) {
		if (message instanceof SystemMessage system) {
			return WireMessage.of("system", system.text());
		}
		if (message instanceof UserMessage user) {
			return WireMessage.of("user", user.text());
		}
		if (message instanceof AssistantMessage assistant) {
			if (!assistant.hasToolCalls()) {
				return WireMessage.of("assistant", assistant.text());
			}
			List<WireToolCall> calls = new ArrayList<>(assistant.toolCalls().size());
			for (ToolCall call : assistant.toolCalls()) {
				calls.add(WireToolCall.of(call.id(), call.name(), call.arguments()));
			}
			String content = assistant.text().isEmpty() ? null : assistant.text();
			return new WireMessage("assistant", content, calls, null);
		}
		ToolResultMessage result = (ToolResultMessage) message;
		return new WireMessage("tool", result.text(), null, result.toolCallId());
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
		return new ChatResponse(new AssistantMessage(message.content(), calls), toUsage(response.usage()),
				FinishReason.fromOpenAi(choice.finishReason()), response.model());
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
		List<ToolCallDelta> deltas = List.of();
		FinishReason finishReason = null;
		if (chunk.choices() != null && !chunk.choices().isEmpty()) {
			ChatCompletionChunk.Choice choice = chunk.choices().get(0);
			WireMessage delta = choice.delta();
			if (delta != null) {
				text = (delta.content() != null) ? delta.content() : "";
				deltas = toDeltas(delta.toolCalls());
			}
			finishReason = (choice.finishReason() != null) ? FinishReason.fromOpenAi(choice.finishReason()) : null;
		}
		Usage usage = (chunk.usage() != null) ? toUsage(chunk.usage()) : null;
		if (text.isEmpty() && deltas.isEmpty() && usage == null && finishReason == null) {
			return null;
		}
		return new ChatChunk(text, deltas, usage, finishReason, chunk.model());
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
		return new Usage(input, output, total);
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

}
