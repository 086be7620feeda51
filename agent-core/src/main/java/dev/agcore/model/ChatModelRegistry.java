package dev.agcore.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The chat models agents can use, by name, of three kinds: named models (in Spring Boot,
 * {@code agent.models.<name>}), provider models ({@code agent.providers.<name>}) and
 * other models, such as {@link ChatModel} beans under their bean names. Names are unique
 * across the three kinds.
 */
public final class ChatModelRegistry {

	private final Map<String, ChatModel> models;

	private final Map<String, ChatModel> providers;

	private final Map<String, ChatModel> beans;

	private final Map<String, ModelDescriptor> descriptors;

	/**
	 * Create a registry without named models.
	 * @param providers the models built from {@code agent.providers}, by provider name
	 * @param beans the {@link ChatModel} beans, by bean name
	 * @throws IllegalArgumentException if a provider and a bean share a name
	 */
	public ChatModelRegistry(Map<String, ? extends ChatModel> providers, Map<String, ? extends ChatModel> beans) {
		this(Map.of(), providers, beans, Map.of());
	}

	/**
	 * Create a registry.
	 * @param models the models of {@code agent.models}, by name
	 * @param providers the models built from {@code agent.providers}, by provider name
	 * @param beans the {@link ChatModel} beans, by bean name
	 * @param descriptors what is known of the models beyond the models themselves (such
	 * as provider types), by name; models without one are described from the model
	 * @throws IllegalArgumentException if two models share a name, naming both
	 */
	public ChatModelRegistry(Map<String, ? extends ChatModel> models, Map<String, ? extends ChatModel> providers,
			Map<String, ? extends ChatModel> beans, Map<String, ModelDescriptor> descriptors) {
		checkClashes("agent.models.", models, "agent.providers.", providers);
		checkClashes("agent.models.", models, "the ChatModel bean ", beans);
		checkClashes("agent.providers.", providers, "the ChatModel bean ", beans);
		this.models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
		this.providers = Collections.unmodifiableMap(new LinkedHashMap<>(providers));
		this.beans = Collections.unmodifiableMap(new LinkedHashMap<>(beans));
		this.descriptors = Map.copyOf(descriptors);
	}

	private static void checkClashes(String firstKind, Map<String, ?> first, String secondKind, Map<String, ?> second) {
		for (String name : first.keySet()) {
			if (second.containsKey(name)) {
				String other = secondKind.endsWith(".") ? secondKind + name : secondKind + "'" + name + "'";
				throw new IllegalArgumentException(firstKind + name + " and " + other + " share the name '" + name
						+ "', so an agent's 'model: " + name + "' would be ambiguous");
			}
		}
	}

	/**
	 * Return the model with the given name: a named model, a provider or a bean.
	 * @param name the name
	 * @return the model, if any
	 */
	public Optional<ChatModel> find(String name) {
		ChatModel model = this.models.get(name);
		if (model == null) {
			model = this.providers.get(name);
		}
		return Optional.ofNullable((model != null) ? model : this.beans.get(name));
	}

	/**
	 * Return the model with the given name.
	 * @param name the name
	 * @return the model
	 * @throws IllegalArgumentException naming the known models if there is none
	 */
	public ChatModel get(String name) {
		return find(name).orElseThrow(() -> new IllegalArgumentException("No chat model named '" + name
				+ "'; " + describeNames()));
	}

	/**
	 * Return the known names by kind, for error messages.
	 * @return a description such as
	 * {@code models: [a]; configured providers: [b]; ChatModel beans: [c]}
	 */
	public String describeNames() {
		return "models: " + modelNames() + "; configured providers: " + providerNames() + "; ChatModel beans: "
				+ beanNames();
	}

	/**
	 * Return the names of the models of {@code agent.models}.
	 * @return the names, in configuration order
	 */
	public Set<String> modelNames() {
		return this.models.keySet();
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
	 * Return every name: named models, then providers, then beans.
	 * @return the names
	 */
	public Set<String> names() {
		Set<String> names = new LinkedHashSet<>(this.models.keySet());
		names.addAll(this.providers.keySet());
		names.addAll(this.beans.keySet());
		return Collections.unmodifiableSet(names);
	}

	/**
	 * Describe every model, in the order of {@link #names()}.
	 * @return the descriptors
	 */
	public List<ModelDescriptor> descriptors() {
		List<ModelDescriptor> all = new ArrayList<>();
		this.models.forEach((name, model) -> all.add(describe(name, ModelDescriptor.KIND_MODEL, model)));
		this.providers.forEach((name, model) -> all.add(describe(name, ModelDescriptor.KIND_PROVIDER, model)));
		this.beans.forEach((name, model) -> all.add(describe(name, ModelDescriptor.KIND_BEAN, model)));
		return List.copyOf(all);
	}

	private ModelDescriptor describe(String name, String kind, ChatModel model) {
		ModelDescriptor known = this.descriptors.get(name);
		if (known != null) {
			return known;
		}
		String provider = ModelDescriptor.KIND_MODEL.equals(kind) ? model.providerName() : name;
		if (model instanceof ConfiguredChatModel configured) {
			return new ModelDescriptor(name, kind, provider, null, model.modelName(), configured.contextWindow(),
					configured.price(), model.capabilities());
		}
		return new ModelDescriptor(name, kind, provider, null, model.modelName(), null, null, model.capabilities());
	}

}
