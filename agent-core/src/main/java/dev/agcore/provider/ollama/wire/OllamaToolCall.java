package dev.agcore.provider.ollama.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One tool call of an assistant message. Older Ollama versions send no id.
 *
 * @param id the call id, when the server gives one
 * @param type {@code function}
 * @param function the function called
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OllamaToolCall(@Nullable String id, @Nullable String type, @Nullable Function function) {

	/**
	 * The function of a tool call.
	 *
	 * @param index the call's position in the message, when the server gives one
	 * @param name the tool name
	 * @param arguments the arguments: a JSON object, not a JSON text as in OpenAI's API
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Function(@Nullable Integer index, @Nullable String name, @Nullable JsonNode arguments) {

	}

}
