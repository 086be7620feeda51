package dev.agcore.provider.gemini.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A {@code GenerateContentResponse}: the body of {@code generateContent}, and each event
 * of {@code streamGenerateContent}. Unknown fields are ignored.
 *
 * @param candidates the candidates; none when the prompt was blocked
 * @param promptFeedback why the prompt was blocked, if it was
 * @param usageMetadata the token counts
 * @param modelVersion the model that answered
 * @param error an error object, when a stream reports one instead of a chunk
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record GenerateContentResponse(@Nullable List<Candidate> candidates, @Nullable PromptFeedback promptFeedback,
		@Nullable UsageMetadata usageMetadata, @Nullable String modelVersion, @Nullable JsonNode error) {

	/**
	 * One candidate answer.
	 *
	 * @param content the answer's parts
	 * @param finishReason why the model stopped, null while it has not
	 * @param finishMessage the reason in words, when given
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Candidate(@Nullable Content content, @Nullable String finishReason, @Nullable String finishMessage) {

	}

	/**
	 * A turn's content.
	 *
	 * @param role {@code user} or {@code model}
	 * @param parts the parts
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Content(@Nullable String role, @Nullable List<Part> parts) {

	}

	/**
	 * One part of a content; one of text or function call is set.
	 *
	 * @param text the text
	 * @param thought whether the text is a thought summary
	 * @param thoughtSignature the opaque signature of the model's thinking
	 * @param functionCall a call the model asks for
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Part(@Nullable String text, @Nullable Boolean thought, @Nullable String thoughtSignature,
			@Nullable FunctionCall functionCall) {

		boolean isThought() {
			return Boolean.TRUE.equals(this.thought);
		}

	}

	/**
	 * A function call.
	 *
	 * @param id the call's id, which newer models send and older ones do not
	 * @param name the function name
	 * @param args the arguments object
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record FunctionCall(@Nullable String id, @Nullable String name, @Nullable JsonNode args) {

	}

	/**
	 * Feedback on the prompt.
	 *
	 * @param blockReason why the prompt was blocked, null when it was not
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record PromptFeedback(@Nullable String blockReason) {

	}

	/**
	 * Token counts. {@code candidatesTokenCount} excludes thinking, counted in
	 * {@code thoughtsTokenCount}.
	 *
	 * @param promptTokenCount tokens in the prompt, cached ones included
	 * @param candidatesTokenCount tokens of the answer, thinking excluded
	 * @param totalTokenCount all tokens
	 * @param cachedContentTokenCount prompt tokens read from the cache
	 * @param thoughtsTokenCount tokens spent thinking
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record UsageMetadata(@Nullable Long promptTokenCount, @Nullable Long candidatesTokenCount,
			@Nullable Long totalTokenCount, @Nullable Long cachedContentTokenCount, @Nullable Long thoughtsTokenCount) {

	}

}
