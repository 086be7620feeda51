package dev.agcore.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.agcore.model.ChatModel;

/**
 * The chat models agents can use, by name: one per {@code agent.providers.<name>} entry,
 * plus every {@link ChatModel} bean under its bean name.
 *
 * @since 0.1.0
 */
public final class ChatModelRegistry {

	private final Map<String, ChatModel> providers;

	private final Map<String, ChatModel> beans;

	/**
	 * Create a registry.
	 * @param providers the models built from {@code agent.providers}, by provider name
	 * @param beans the {@link ChatModel} beans, by bean name
	 * @throws AgentConfigurationException if a provider and a bean share a name
	 */
	public ChatModelRegistry(Map<String, ? extends ChatModel> providers, Map<String, ? extends ChatModel> beans) {
		for (String name : providers.keySet()) {
			if (beans.containsKey(name)) {
				throw new AgentConfigurationException(
						"agent.providers." + name + ": a ChatModel bean is also named '" + name
								+ "', so an agent's 'provider: " + name + "' would be ambiguous",
						"Rename the provider or the ChatModel bean.");
			}
		}
		this.providers = Collections.unmodifiableMap(new LinkedHashMap<>(providers));
		this.beans = Collections.unmodifiableMap(new LinkedHashMap<>(beans));
	}

	/**
	 * Return the model with the given provider or bean name.
	 * @param name the name
	 * @return the model, if any
	 */
	public Optional<ChatModel> find(String name) {
		ChatModel model = this.providers.get(name);
		return Optional.ofNullable((model != null) ? model : this.beans.get(name));
	}

	/**
	 * Return the model with the given provider or bean name.
	 * @param name the name
	 * @return the model
	 * @throws IllegalArgumentException naming the known models if there is none
	 */
	public ChatModel get(String name) {
		return find(name).orElseThrow(() -> new IllegalArgumentException("No chat model named '" + name
				+ "'; configured providers: " + providerNames() + "; ChatModel beans: " + beanNames()));
	}

	/**
	 * Return the names of the models built from {@code agent.providers}.
	 * @return the provider names, in configuration order
	 */
	public Set<String> providerNames() {
		return this.providers.keySet();
	}

	/**
	 * Return the names of the {@link ChatModel} beans.
	 * @return the bean names
	 */
	public Set<String> beanNames() {
		return this.beans.keySet();
	}

	/**
	 * Return every name, providers first.
	 * @return the names
	 */
	public Set<String> names() {
		Set<String> names = new LinkedHashSet<>(this.providers.keySet());
		names.addAll(this.beans.keySet());
		return Collections.unmodifiableSet(names);
	}

}
