package dev.agcore.autoconfigure.model;

import java.util.Set;

import dev.agcore.model.ChatModel;

/**
 * Builds the chat models of one kind of {@code agent.providers} entry, by its
 * {@code type}. One implementation per provider package; {@link ProviderModels} lists
 * them.
 */
interface ProviderFactory {

	/**
	 * Return the {@code type} values this factory builds, such as {@code anthropic}.
	 * @return the types, lower case
	 */
	Set<String> types();

	/**
	 * Build the model one provider entry (or one named model of it) describes, reporting
	 * a bad value with the property that holds it.
	 * @param source the provider entry, the model to request and its default options
	 * @return the model, without retries (the caller adds them)
	 */
	ChatModel create(ProviderSource source);

}
