package dev.agcore.message;

import java.util.Objects;

/**
 * Instructions for the model.
 *
 * @param text the instructions
 */
public record SystemMessage(String text) implements Message {

	public SystemMessage {
		Objects.requireNonNull(text, "'text' must not be null");
	}

	@Override
	public Role role() {
		return Role.SYSTEM;
	}

}
