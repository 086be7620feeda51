package dev.agcore.autoconfigure.web.openai;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agcore.model.Usage;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import org.jspecify.annotations.Nullable;

/**
 * The objects of the Chat Completions API an answer is made of: {@code chat.completion}
 * and {@code chat.completion.chunk}, as maps in the API's own field names.
 *
 * @param id the completion's id, {@code chatcmpl-...}, the same for all chunks of a stream
 * @param created when the completion started, in seconds since the epoch
 * @param model the agent's name
 */
record ChatCompletions(String id, long created, String model) {

	static ChatCompletions start(String model) {
		return new ChatCompletions("chatcmpl-" + UUID.randomUUID().toString().replace("-", ""),
				System.currentTimeMillis() / 1000, model);
	}

	/** A whole answer. */
	Map<String, Object> completion(AgentResult result, boolean exposeToolCalls) {
		Map<String, Object> message = new LinkedHashMap<>();
		message.put("role", "assistant");
		message.put("content", result.output());
		if (exposeToolCalls && !result.toolExecutions().isEmpty()) {
			message.put("tool_calls", toolCalls(result.toolExecutions()));
		}
		Map<String, Object> choice = new LinkedHashMap<>();
		choice.put("index", 0);
		choice.put("message", message);
		choice.put("logprobs", null);
		choice.put("finish_reason", finishReason(result));
		Map<String, Object> completion = head("chat.completion");
		completion.put("choices", List.of(choice));
		completion.put("usage", usage(result.usage()));
		return completion;
	}

	/** A chunk of a stream with one choice: a delta and, in the last, the finish reason. */
	Map<String, Object> chunk(Map<String, Object> delta, @Nullable String finishReason) {
		Map<String, Object> choice = new LinkedHashMap<>();
		choice.put("index", 0);
		choice.put("delta", delta);
		choice.put("logprobs", null);
		choice.put("finish_reason", finishReason);
		Map<String, Object> chunk = head("chat.completion.chunk");
		chunk.put("choices", List.of(choice));
		return chunk;
	}

	/** The chunk after the last one, when the request asked for usage: no choices. */
	Map<String, Object> usageChunk(Usage usage) {
		Map<String, Object> chunk = head("chat.completion.chunk");
		chunk.put("choices", List.of());
		chunk.put("usage", usage(usage));
		return chunk;
	}

	/** A tool call the agent made, as one entry of a delta's {@code tool_calls}. */
	static Map<String, Object> toolCall(int index, String id, String name, String arguments) {
		Map<String, Object> call = new LinkedHashMap<>();
		call.put("index", index);
		call.put("id", id);
		call.put("type", "function");
		call.put("function", Map.of("name", name, "arguments", arguments));
		return call;
	}

	// a turn stopped by its bound on model calls did not finish its answer
	static String finishReason(AgentResult result) {
		return (result.status() == AgentResult.Status.MAX_ITERATIONS_REACHED) ? "length" : "stop";
	}

	private static List<Map<String, Object>> toolCalls(List<ToolExecution> executions) {
		return executions.stream()
			.map((execution) -> {
				Map<String, Object> call = toolCall(0, execution.id(), execution.name(), execution.arguments());
				call.remove("index");
				return call;
			})
			.toList();
	}

	private Map<String, Object> head(String object) {
		Map<String, Object> head = new LinkedHashMap<>();
		head.put("id", this.id);
		head.put("object", object);
		head.put("created", this.created);
		head.put("model", this.model);
		return head;
	}

	private static Map<String, Object> usage(Usage usage) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("prompt_tokens", usage.inputTokens());
		view.put("completion_tokens", usage.outputTokens());
		view.put("total_tokens", usage.totalTokens());
		return view;
	}

}
