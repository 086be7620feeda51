package dev.agcore.middleware.builtin;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The counters recorded by built-in middleware; records nothing without a registry.
 * Counters are cached per tag combination, so recording costs a map lookup.
 */
final class MiddlewareMetrics {

	static final String HOOK_EVENTS = "agent.hook.events";

	static final String LIMIT_EXCEEDED = "agent.limit.exceeded";

	static final String MODEL_FALLBACKS = "agent.model.fallbacks";

	static final String COMPACTIONS = "agent.compactions";

	private static final Map<String, String> DESCRIPTIONS = Map.of(HOOK_EVENTS, "Middleware hook invocations",
			LIMIT_EXCEEDED, "Turns that hit a call limit", MODEL_FALLBACKS, "Switches to a fallback model",
			COMPACTIONS, "Conversation compactions at the start of a turn, by outcome");

	private final @Nullable MeterRegistry registry;

	private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

	MiddlewareMetrics(@Nullable MeterRegistry registry) {
		this.registry = registry;
	}

	boolean isEnabled() {
		return this.registry != null;
	}

	/**
	 * Increment a counter.
	 * @param name the meter name
	 * @param tags tag keys and values, alternating
	 */
	void increment(String name, String... tags) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		String[] key = new String[tags.length + 1];
		key[0] = name;
		System.arraycopy(tags, 0, key, 1, tags.length);
		this.counters.computeIfAbsent(Arrays.asList(key), (k) -> Counter.builder(name)
			.description(DESCRIPTIONS.getOrDefault(name, name))
			.tags(tags)
			.register(registry)).increment();
	}

}
