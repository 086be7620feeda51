package dev.agcore.runtime;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import dev.agcore.message.Media;
import dev.agcore.model.ChatOptions;
import org.jspecify.annotations.Nullable;

/**
 * One user turn sent to an agent.
 *
 * @param sessionId the conversation this turn belongs to
 * @param message what the user said
 * @param state caller state passed to tools through
 * {@link dev.agcore.tool.ToolContext#state()}; never sent to the model
 * @param userId the user the session belongs to, or {@code null}: when set, the session is
 * listed among the user's sessions and user-scoped memory tools can run
 * @param options options for this turn's model calls, over the agent's own
 * ({@link ChatOptions#withDefaults}); {@link ChatOptions#DEFAULTS} for none. A
 * {@link ChatOptions#model() model} names one of the agent's models
 * ({@link AgentBuilder#models}); a forced {@link ChatOptions#toolChoice() tool choice}
 * applies to the turn's first model call only
 * @param media images and files sent with the message, for models that take them
 * ({@link dev.agcore.model.ModelCapability#IMAGES}, {@link dev.agcore.model.ModelCapability#PDF});
 * a model that cannot take one fails the turn with a
 * {@link dev.agcore.model.ModelRequestException} naming it. Empty for none
 * @param instructions system text for this turn only, the last layer of the system
 * prompt; {@code null} for none
 * @param locale the user's locale, shown to the model when the agent's environment layer
 * says so; {@code null} when unknown
 */
public record AgentRequest(String sessionId, String message, Map<String, Object> state, @Nullable String userId,
		ChatOptions options, List<Media> media, @Nullable String instructions, @Nullable Locale locale) {

	/**
	 * The longest session id: ids are keys in stores and parts of URLs, and one that can
	 * be written must be readable back through {@code GET .../sessions/{id}/messages}.
	 */
	public static final int MAX_SESSION_ID_LENGTH = 256;

	/** The longest user id, for the same reasons. */
	public static final int MAX_USER_ID_LENGTH = 256;

	public AgentRequest {
		Objects.requireNonNull(sessionId, "'sessionId' must not be null");
		Objects.requireNonNull(message, "'message' must not be null");
		if (sessionId.isBlank()) {
			throw new IllegalArgumentException("'sessionId' must not be blank");
		}
		if (sessionId.length() > MAX_SESSION_ID_LENGTH) {
			throw new IllegalArgumentException("'sessionId' must be at most " + MAX_SESSION_ID_LENGTH
					+ " characters, was " + sessionId.length());
		}
		if (userId != null && userId.isBlank()) {
			throw new IllegalArgumentException("'userId' must not be blank");
		}
		if (userId != null && userId.length() > MAX_USER_ID_LENGTH) {
			throw new IllegalArgumentException(
					"'userId' must be at most " + MAX_USER_ID_LENGTH + " characters, was " + userId.length());
		}
		state = Map.copyOf(state);
		Objects.requireNonNull(options, "'options' must not be null");
		media = (media != null) ? List.copyOf(media) : List.of();
		instructions = (instructions != null && !instructions.isBlank()) ? instructions : null;
	}

	/**
	 * A turn with media.
	 * @param sessionId the session
	 * @param message what the user said
	 * @param state caller state for the tools
	 * @param userId the user, or {@code null}
	 * @param options options for the turn's model calls
	 * @param media images and files sent with the message
	 */
	public AgentRequest(String sessionId, String message, Map<String, Object> state, @Nullable String userId,
			ChatOptions options, List<Media> media) {
		this(sessionId, message, state, userId, options, media, null, null);
	}

	/**
	 * A turn without media.
	 * @param sessionId the session
	 * @param message what the user said
	 * @param state caller state for the tools
	 * @param userId the user, or {@code null}
	 * @param options options for the turn's model calls
	 */
	public AgentRequest(String sessionId, String message, Map<String, Object> state, @Nullable String userId,
			ChatOptions options) {
		this(sessionId, message, state, userId, options, List.of());
	}

	/**
	 * A turn with the agent's own options.
	 * @param sessionId the session
	 * @param message what the user said
	 * @param state caller state for the tools
	 * @param userId the user, or {@code null}
	 */
	public AgentRequest(String sessionId, String message, Map<String, Object> state, @Nullable String userId) {
		this(sessionId, message, state, userId, ChatOptions.DEFAULTS);
	}

	/**
	 * A turn without a user id.
	 * @param sessionId the session
	 * @param message what the user said
	 * @param state caller state for the tools
	 */
	public AgentRequest(String sessionId, String message, Map<String, Object> state) {
		this(sessionId, message, state, null, ChatOptions.DEFAULTS);
	}

	public static AgentRequest of(String sessionId, String message) {
		return new AgentRequest(sessionId, message, Map.of(), null, ChatOptions.DEFAULTS);
	}

	/**
	 * Return this request on behalf of a user.
	 * @param userId the user, or {@code null} for none
	 * @return the request
	 */
	public AgentRequest withUserId(@Nullable String userId) {
		return new AgentRequest(this.sessionId, this.message, this.state, userId, this.options, this.media,
				this.instructions, this.locale);
	}

	/**
	 * Return this request with caller state for the tools.
	 * @param state the state
	 * @return the request
	 */
	public AgentRequest withState(Map<String, Object> state) {
		return new AgentRequest(this.sessionId, this.message, state, this.userId, this.options, this.media,
				this.instructions, this.locale);
	}

	/**
	 * Return this request with options for its model calls.
	 * @param options the options, over the agent's own
	 * @return the request
	 */
	public AgentRequest withOptions(ChatOptions options) {
		return new AgentRequest(this.sessionId, this.message, this.state, this.userId, options, this.media,
				this.instructions, this.locale);
	}

	/**
	 * Return this request with images or files attached to its message.
	 * @param media the media, such as {@code Media.url(uri, "image/png")}
	 * @return the request
	 */
	public AgentRequest withMedia(List<Media> media) {
		return new AgentRequest(this.sessionId, this.message, this.state, this.userId, this.options, media,
				this.instructions, this.locale);
	}

	/**
	 * Return this request with system text for this turn only: the last layer of the
	 * system prompt, after the agent's prompt, its environment and the session context.
	 * @param instructions the text, or {@code null} for none
	 * @return the request
	 */
	public AgentRequest withInstructions(@Nullable String instructions) {
		return new AgentRequest(this.sessionId, this.message, this.state, this.userId, this.options, this.media,
				instructions, this.locale);
	}

	/**
	 * Return this request with the user's locale, which an agent whose environment layer
	 * shows it tells the model.
	 * @param locale the locale, or {@code null} when unknown
	 * @return the request
	 */
	public AgentRequest withLocale(@Nullable Locale locale) {
		return new AgentRequest(this.sessionId, this.message, this.state, this.userId, this.options, this.media,
				this.instructions, locale);
	}

}
