package dev.agcore.message;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One block of a model's reasoning (thinking), kept apart from its answer. Some
 * providers require it sent back unchanged with the next request (Anthropic verifies the
 * signature), so it is stored with the {@link AssistantMessage}.
 *
 * @param text the reasoning text; empty when the provider withheld it
 * @param signature the provider's signature over the block, null when it gives none
 * @param redactedData the provider's encrypted form of a withheld block (Anthropic
 * {@code redacted_thinking}), null otherwise
 */
public record Reasoning(String text, @Nullable String signature, @Nullable String redactedData) {

	public Reasoning {
		Objects.requireNonNull(text, "'text' must not be null");
	}

	public static Reasoning of(String text) {
		return new Reasoning(text, null, null);
	}

	/**
	 * Return whether the provider withheld this block's text.
	 * @return whether it is redacted
	 */
	public boolean isRedacted() {
		return this.redactedData != null;
	}

}
