package dev.agcore.provider.anthropic.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.Usage;
import dev.agcore.provider.support.HttpErrors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps Anthropic Messages API responses, token counts and errors to the library's
 * types. Thread-safe.
 */
public final class AnthropicResponseMapper {

	private final String provider;

	private final JsonMapper jsonMapper;

	/**
	 * Create a mapper.
	 * @param provider the provider name used in exceptions
	 * @param jsonMapper the mapper that writes error bodies for {@link HttpErrors}
	 */
	public AnthropicResponseMapper(String provider, JsonMapper jsonMapper) {
		this.provider = Objects.requireNonNull(provider, "'provider' must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "'jsonMapper' must not be null");
	}

	/**
	 * Map a non-streamed response.
	 * @param response the response body
	 * @param answerTool whether a call of the {@link AnthropicRequestMapper#ANSWER_TOOL} is the answer
	 * @return the response
	 * @throws ModelException if the body is an error or holds a tool call without a name
	 */
	public ChatResponse toResponse(MessagesResponse response, boolean answerTool) {
		if (response.error() != null || "error".equals(response.type())) {
			throw toException(response.error());
		}
		StringBuilder text = new StringBuilder();
		List<ToolCall> calls = new ArrayList<>(2);
		List<Reasoning> reasoning = new ArrayList<>(1);
		boolean answered = false;
		List<ContentBlock> content = (response.content() != null) ? response.content() : List.of();
		for (ContentBlock block : content) {
			switch (String.valueOf(block.type())) {
				case "text" -> text.append((block.text() != null) ? block.text() : "");
				case "tool_use" -> {
					if (block.name() == null || block.name().isEmpty()) {
						throw new ModelResponseException(this.provider,
								this.provider + " returned a tool_use block without a tool name");
					}
					String input = (block.input() != null) ? block.input().toString() : "{}";
					if (answerTool && AnthropicRequestMapper.ANSWER_TOOL.equals(block.name())) {
						text.append(input);
						answered = true;
					}
					else {
						String id = (block.id() != null) ? block.id() : "call_" + calls.size();
						calls.add(new ToolCall(id, block.name(), input));
					}
				}
				case "thinking" -> reasoning.add(new Reasoning((block.thinking() != null) ? block.thinking() : "",
						block.signature(), null));
				case "redacted_thinking" -> reasoning.add(new Reasoning("", null, block.data()));
				default -> {
					// server tool blocks and other types carry nothing the library represents
				}
			}
		}
		FinishReason reason = finishReason(response.stopReason(), answered && calls.isEmpty());
		AssistantMessage message = new AssistantMessage(text.toString(), calls, reasoning, null);
		return new ChatResponse(message, toUsage(response.usage()), reason, response.model());
	}

	/**
	 * Map a stop reason.
	 * @param stopReason the wire value, may be null
	 * @param answeredByTool whether the only tool called was the answer tool, which ends
	 * the answer rather than asking for tools
	 * @return the finish reason
	 */
	public static FinishReason finishReason(@Nullable String stopReason, boolean answeredByTool) {
		if (stopReason == null) {
			return FinishReason.STOP;
		}
		return switch (stopReason) {
			case "end_turn", "stop_sequence" -> FinishReason.STOP;
			case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
			case "tool_use" -> answeredByTool ? FinishReason.STOP : FinishReason.TOOL_CALLS;
			case "refusal" -> FinishReason.CONTENT_FILTER;
			default -> FinishReason.OTHER;
		};
	}

	/**
	 * Map token counts. Anthropic's {@code input_tokens} leaves out cached tokens; the
	 * usage's input is the whole prompt, cache reads and writes included, as other
	 * providers count it.
	 * @param usage the counts, may be null
	 * @return the usage
	 */
	public static Usage toUsage(@Nullable WireUsage usage) {
		if (usage == null) {
			return Usage.EMPTY;
		}
		long uncached = value(usage.inputTokens());
		long cacheRead = value(usage.cacheReadInputTokens());
		long cacheWrite = value(usage.cacheCreationInputTokens());
		long input = uncached + cacheRead + cacheWrite;
		long output = value(usage.outputTokens());
		return new Usage(input, output, input + output).withDetails(cacheRead, cacheWrite, 0);
	}

	private static long value(@Nullable Long value) {
		return (value != null) ? value : 0;
	}

	/**
	 * Map an error sent with a successful status: in a body, or as a stream's
	 * {@code error} event. Each type is classified as the HTTP status Anthropic documents
	 * for it, so {@code overloaded_error} is a retryable 529.
	 * @param error the error, may be null
	 * @return the exception
	 */
	public ModelException toException(@Nullable WireError error) {
		String type = (error != null && error.type() != null) ? error.type() : "api_error";
		int status = switch (type) {
			case "invalid_request_error" -> 400;
			case "authentication_error" -> 401;
			case "billing_error" -> 402;
			case "permission_error" -> 403;
			case "not_found_error" -> 404;
			case "request_too_large" -> 413;
			case "rate_limit_error" -> 429;
			case "timeout_error" -> 504;
			case "overloaded_error" -> 529;
			default -> 500;
		};
		ObjectNode body = this.jsonMapper.createObjectNode().put("type", "error");
		body.putObject("error")
			.put("type", type)
			.put("message", (error != null && error.message() != null) ? error.message() : type);
		return HttpErrors.fromStatus(this.provider, status, null, body.toString());
	}

}
