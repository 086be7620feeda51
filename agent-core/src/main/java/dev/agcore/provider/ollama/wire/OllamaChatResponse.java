package dev.agcore.provider.ollama.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A response of {@code /api/chat}: the whole answer, or one line of a stream (the last
 * with {@code done: true}, the counts and the reason).
 *
 * @param model the model that answered
 * @param message the message, or the piece of it this line carries
 * @param done whether this is the last line; absent in an error
 * @param doneReason why the model stopped: {@code stop}, {@code length}, {@code load},
 * {@code unload}
 * @param promptEvalCount tokens in the prompt
 * @param evalCount tokens generated
 * @param error an error, in place of everything else: a text in Ollama, an object with a
 * {@code message} from some proxies
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OllamaChatResponse(@Nullable String model, @Nullable OllamaMessage message, @Nullable Boolean done,
		@JsonProperty("done_reason") @Nullable String doneReason,
		@JsonProperty("prompt_eval_count") @Nullable Long promptEvalCount,
		@JsonProperty("eval_count") @Nullable Long evalCount, @Nullable JsonNode error) {

	/**
	 * Return whether this is the last line of the answer.
	 * @return whether {@code done} is true
	 */
	// not named isDone: Jackson would take it for the property and its ignoral for done's
	public boolean last() {
		return Boolean.TRUE.equals(this.done);
	}

}
