package dev.agcore.message;

/**
 * A message in a conversation with a model. Immutable.
 */
public sealed interface Message permits SystemMessage, UserMessage, AssistantMessage, ToolResultMessage {

	/**
	 * Return who wrote this message.
	 * @return the role
	 */
	Role role();

	/**
	 * Return the text of this message; empty, never null, when there is none.
	 * @return the text
	 */
	String text();

}
