package dev.agcore.message;

import java.util.Objects;

/**
 * Instructions for the model.
 *
 * @param text the instructions
 * @param developer whether these are developer instructions, sent with OpenAI's
 * {@code developer} role; other providers treat them as system instructions
 */
public record SystemMessage(String text, boolean developer) implements Message {

	public SystemMessage {
		Objects.requireNonNull(text, "'text' must not be null");
	}

	/**
	 * Create system (not developer) instructions.
	 * @param text the instructions
	 */
	public SystemMessage(String text) {
		this(text, false);
	}

	public static SystemMessage developer(String text) {
		return new SystemMessage(text, true);
	}

	@Override
	public Role role() {
		return Role.SYSTEM;
	}

}
