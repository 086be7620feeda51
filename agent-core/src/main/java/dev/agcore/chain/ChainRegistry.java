package dev.agcore.chain;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import dev.agcore.observation.AgentMetrics;

/**
 * Chains by name: the {@link Chain @Chain} methods of an application, and any chain
 * registered in code. Each registered chain is named as registered and its runs are
 * recorded in the registry's {@link AgentMetrics}. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ChainRegistry {

	private final Map<String, Runnable<?, ?>> chains = new ConcurrentHashMap<>();

	private final AgentMetrics metrics;

	/**
	 * Create an empty registry that records no metrics.
	 */
	public ChainRegistry() {
		this(AgentMetrics.NOOP);
	}

	/**
	 * Create an empty registry.
	 * @param metrics where the runs of registered chains are recorded
	 */
	public ChainRegistry(AgentMetrics metrics) {
		this.metrics = Objects.requireNonNull(metrics, "'metrics' must not be null");
	}

	/**
	 * Register a chain.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param name the name, unique in this registry
	 * @param chain the chain
	 * @return the chain as the registry holds it: named, and recorded in metrics
	 * @throws IllegalArgumentException if the name is blank or taken
	 */
	public <I, O> Runnable<I, O> register(String name, Runnable<I, O> chain) {
		Objects.requireNonNull(chain, "'chain' must not be null");
		Runnable<I, O> registered = Chains.observed(chain.named(name), this.metrics);
		if (this.chains.putIfAbsent(name, registered) != null) {
			throw new IllegalArgumentException("A chain named '" + name + "' is already registered");
		}
		return registered;
	}

	/**
	 * Return a chain. Its types are the caller's claim, unchecked: a chain given an
	 * input of another type fails when it runs, as a cast would.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param name the chain's name
	 * @return the chain
	 * @throws ChainException if no chain has the name, listing the names there are
	 */
	public <I, O> Runnable<I, O> get(String name) {
		return this.<I, O>find(name)
			.orElseThrow(() -> new ChainException("No chain named '" + name + "'; chains: " + names()));
	}

	/**
	 * Return a chain if there is one; see {@link #get}.
	 * @param <I> the input type
	 * @param <O> the output type
	 * @param name the chain's name
	 * @return the chain, or empty
	 */
	@SuppressWarnings("unchecked")
	public <I, O> Optional<Runnable<I, O>> find(String name) {
		Objects.requireNonNull(name, "'name' must not be null");
		return Optional.ofNullable((Runnable<I, O>) this.chains.get(name));
	}

	/**
	 * Return the names of the registered chains.
	 * @return the names, sorted
	 */
	public Set<String> names() {
		return new TreeSet<>(this.chains.keySet());
	}

}
