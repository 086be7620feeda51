package dev.agcore.message;

import java.util.Objects;

/**
 * Input from the user.
 *
 * @param text what the user said
 */
public record UserMessage(String text) implements Message {

	public UserMessage {
		Objects.requireNonNull(text, "'text' must not be null");
	}

	@Override
	public Role role() {
		return Role.USER;
	}

}
