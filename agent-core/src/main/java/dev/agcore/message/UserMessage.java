package dev.agcore.message;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Input from the user.
 *
 * @param text what the user said
 * @param media images and files attached to the message; empty for none
 * @param name the participant's name, for providers that tell participants apart; may be
 * null
 */
public record UserMessage(String text, List<Media> media, @Nullable String name) implements Message {

	public UserMessage {
		Objects.requireNonNull(text, "'text' must not be null");
		media = (media != null) ? List.copyOf(media) : List.of();
		name = (name != null && !name.isBlank()) ? name : null;
	}

	/**
	 * Create a text-only message.
	 * @param text what the user said
	 */
	public UserMessage(String text) {
		this(text, List.of(), null);
	}

	public static UserMessage of(String text, Media... media) {
		return new UserMessage(text, List.of(media), null);
	}

	public boolean hasMedia() {
		return !this.media.isEmpty();
	}

	@Override
	public Role role() {
		return Role.USER;
	}

}
