package dev.agcore.provider.ollama.wire;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /api/chat}.
 *
 * @param model the model, such as {@code llama3.2}
 * @param messages the conversation
 * @param tools the tools, in OpenAI's function format; absent for none
 * @param stream whether to stream NDJSON lines; always written, as Ollama streams by
 * default
 * @param format {@code "json"} or a JSON schema the answer must match
 * @param options sampling options, such as {@code temperature} and {@code num_predict}
 * @param think {@code true}, {@code false} or a level such as {@code "high"}
 * @param keepAlive how long the model stays loaded: a duration text such as {@code "5m"},
 * or a number of seconds (negative for ever)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OllamaChatRequest(String model, List<OllamaMessage> messages, @Nullable List<OllamaTool> tools,
		@JsonInclude(JsonInclude.Include.ALWAYS) boolean stream, @Nullable Object format,
		@Nullable Map<String, Object> options, @Nullable Object think,
		@JsonProperty("keep_alive") @Nullable Object keepAlive) {

}
