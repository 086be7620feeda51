package dev.agcore.prompt;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.Role;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;

/**
 * Builds a list of messages, from text or templates, for a model request or an agent's
 * history. Not thread-safe; {@link #build()} returns an immutable copy.
 *
 * <pre class="code">
 * List&lt;Message&gt; messages = PromptComposer.create()
 *     .systemTemplate(templates.get("support/system"), Map.of("shop", "Tea &amp; Co"))
 *     .user("Where is my order?").withName("ada")
 *     .build();
 * </pre>
 */
public final class PromptComposer {

	private final List<Message> messages;

	private PromptComposer(List<Message> messages) {
		this.messages = new ArrayList<>(messages);
	}

	/** Start an empty list. */
	public static PromptComposer create() {
		return new PromptComposer(List.of());
	}

	/**
	 * Start from messages, such as a stored history.
	 * @param messages the first messages
	 * @return the composer
	 */
	public static PromptComposer from(List<? extends Message> messages) {
		return new PromptComposer(List.copyOf(messages));
	}

	public PromptComposer system(String text) {
		return add(new SystemMessage(text));
	}

	/** Add developer instructions: OpenAI's {@code developer} role, system elsewhere. */
	public PromptComposer developer(String text) {
		return add(SystemMessage.developer(text));
	}

	/**
	 * Add a user message, with images or files.
	 * @param text what the user says
	 * @param media images and files attached to it
	 * @return this composer
	 */
	public PromptComposer user(String text, Media... media) {
		return add(UserMessage.of(text, media));
	}

	/**
	 * Add a user message with images or files.
	 * @param text what the user says
	 * @param media images and files attached to it
	 * @return this composer
	 */
	public PromptComposer user(String text, List<Media> media) {
		return add(new UserMessage(text, media, null));
	}

	public PromptComposer assistant(String text) {
		return add(AssistantMessage.of(text));
	}

	/**
	 * Add an assistant message asking for tools.
	 * @param text what the model said with the calls, may be empty
	 * @param toolCalls the calls
	 * @return this composer
	 */
	public PromptComposer assistant(String text, List<ToolCall> toolCalls) {
		return add(new AssistantMessage(text, toolCalls));
	}

	/**
	 * Add the result of a tool call.
	 * @param toolCallId the id of the call it answers
	 * @param toolName the tool's name
	 * @param text the result
	 * @return this composer
	 */
	public PromptComposer tool(String toolCallId, String toolName, String text) {
		return add(new ToolResultMessage(toolCallId, toolName, text, false));
	}

	public PromptComposer systemTemplate(PromptTemplate template, Map<String, ?> variables) {
		return system(template.render(variables));
	}

	public PromptComposer developerTemplate(PromptTemplate template, Map<String, ?> variables) {
		return developer(template.render(variables));
	}

	public PromptComposer userTemplate(PromptTemplate template, Map<String, ?> variables) {
		return user(template.render(variables));
	}

	public PromptComposer assistantTemplate(PromptTemplate template, Map<String, ?> variables) {
		return assistant(template.render(variables));
	}

	/**
	 * Name the participant who wrote the last message, for providers that tell
	 * participants apart. In agcore only user messages carry a name.
	 * @param name the participant's name
	 * @return this composer
	 * @throws IllegalStateException if there is no message yet, or the last one is not a
	 * user message
	 */
	public PromptComposer withName(String name) {
		Objects.requireNonNull(name, "'name' must not be null");
		if (this.messages.isEmpty()) {
			throw new IllegalStateException("withName needs a message to name; add one first");
		}
		int last = this.messages.size() - 1;
		if (!(this.messages.get(last) instanceof UserMessage user)) {
			throw new IllegalStateException("withName names user messages only; the last message is a "
					+ this.messages.get(last).role().name().toLowerCase(Locale.ROOT) + " message");
		}
		this.messages.set(last, new UserMessage(user.text(), user.media(), name));
		return this;
	}

	/** Return the messages added so far. */
	public List<Message> build() {
		return List.copyOf(this.messages);
	}

	/**
	 * Check that messages come in an order models accept: at least one message; each tool
	 * result right after the assistant message that asked for it (several results in a
	 * row are fine) and answering one of its calls; and no two user or two assistant
	 * messages in a row (system messages may repeat).
	 * @param messages the messages
	 * @throws PromptException of kind {@link PromptException.Kind#INVALID_SEQUENCE}
	 * naming the first message out of order, by its position from 0
	 */
	public static void validateMessages(List<? extends Message> messages) {
		if (messages.isEmpty()) {
			throw invalid("the message list is empty");
		}
		Set<String> openCalls = new HashSet<>();
		Role previous = null;
		for (int i = 0; i < messages.size(); i++) {
			Message message = messages.get(i);
			if (message instanceof ToolResultMessage result) {
				if (openCalls.isEmpty()) {
					throw invalid("message " + i + " is a tool result, but no assistant message with tool calls "
							+ "comes right before it");
				}
				if (!openCalls.contains(result.toolCallId())) {
					throw invalid("message " + i + " answers tool call '" + result.toolCallId()
							+ "', which the assistant message before it did not make (it made " + openCalls + ")");
				}
			}
			else {
				if (message.role() != Role.SYSTEM && message.role() == previous) {
					throw invalid("messages " + (i - 1) + " and " + i + " are both "
							+ message.role().name().toLowerCase(Locale.ROOT) + " messages");
				}
				openCalls.clear();
				if (message instanceof AssistantMessage assistant) {
					assistant.toolCalls().forEach((call) -> openCalls.add(call.id()));
				}
			}
			previous = message.role();
		}
	}

	private PromptComposer add(Message message) {
		this.messages.add(message);
		return this;
	}

	private static PromptException invalid(String what) {
		return new PromptException(PromptException.Kind.INVALID_SEQUENCE, null, "Invalid message sequence: " + what);
	}

}
