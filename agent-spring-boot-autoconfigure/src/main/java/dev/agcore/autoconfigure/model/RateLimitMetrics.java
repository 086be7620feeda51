package dev.agcore.autoconfigure.model;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.agcore.provider.support.RateLimitListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Records the rate-limit headers of provider responses as gauges:
 * {@code agent.ratelimit.remaining} and {@code agent.ratelimit.limit}, tagged
 * {@code provider} and {@code kind} ({@code requests}, {@code tokens},
 * {@code input-tokens} or {@code output-tokens}). Read from OpenAI-style
 * {@code x-ratelimit-remaining-*}/{@code x-ratelimit-limit-*} and Anthropic's
 * {@code anthropic-ratelimit-*-remaining}/{@code -limit} headers. Only these known
 * headers become tags; values that are not non-negative integers are ignored.
 *
 * @since 0.1.0
 */
public final class RateLimitMetrics implements RateLimitListener {

	static final String REMAINING = "agent.ratelimit.remaining";

	static final String LIMIT = "agent.ratelimit.limit";

	// header -> { metric, kind }: a fixed set, so tags stay bounded
	private static final Map<String, String[]> HEADERS = Map.ofEntries(
			Map.entry("x-ratelimit-remaining-requests", new String[] { REMAINING, "requests" }),
			Map.entry("x-ratelimit-remaining-tokens", new String[] { REMAINING, "tokens" }),
			Map.entry("x-ratelimit-limit-requests", new String[] { LIMIT, "requests" }),
			Map.entry("x-ratelimit-limit-tokens", new String[] { LIMIT, "tokens" }),
			Map.entry("anthropic-ratelimit-requests-remaining", new String[] { REMAINING, "requests" }),
			Map.entry("anthropic-ratelimit-tokens-remaining", new String[] { REMAINING, "tokens" }),
			Map.entry("anthropic-ratelimit-input-tokens-remaining", new String[] { REMAINING, "input-tokens" }),
			Map.entry("anthropic-ratelimit-output-tokens-remaining", new String[] { REMAINING, "output-tokens" }),
			Map.entry("anthropic-ratelimit-requests-limit", new String[] { LIMIT, "requests" }),
			Map.entry("anthropic-ratelimit-tokens-limit", new String[] { LIMIT, "tokens" }),
			Map.entry("anthropic-ratelimit-input-tokens-limit", new String[] { LIMIT, "input-tokens" }),
			Map.entry("anthropic-ratelimit-output-tokens-limit", new String[] { LIMIT, "output-tokens" }));

	// long enough for any real limit, short enough that a huge header is not parsed
	private static final int MAX_DIGITS = 18;

	private final MeterRegistry registry;

	private final Map<Key, AtomicLong> values = new ConcurrentHashMap<>();

	/**
	 * Create the listener.
	 * @param registry where the gauges are registered
	 */
	public RateLimitMetrics(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
	}

	@Override
	public void onHeaders(String provider, String model, HttpHeaders headers) {
		try {
			HEADERS.forEach((header, target) -> {
				Long value = parse(headers.getFirst(header));
				if (value != null) {
					gauge(new Key(target[0], provider, target[1])).set(value);
				}
			});
		}
		catch (RuntimeException ex) {
			// told on the response thread: a metrics failure must not fail the call
		}
	}

	private AtomicLong gauge(Key key) {
		AtomicLong value = this.values.get(key);
		if (value == null) {
			value = this.values.computeIfAbsent(key, (k) -> {
				AtomicLong state = new AtomicLong();
				Gauge.builder(k.metric(), state, AtomicLong::get)
					.description(LIMIT.equals(k.metric()) ? "Rate limit of a provider, as its headers report it"
							: "Rate limit left at a provider, as its headers report it")
					.tags("provider", k.provider(), "kind", k.kind())
					.register(this.registry);
				return state;
			});
		}
		return value;
	}

	static @Nullable Long parse(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String text = value.strip();
		if (text.isEmpty() || text.length() > MAX_DIGITS) {
			return null;
		}
		for (int i = 0; i < text.length(); i++) {
			if (text.charAt(i) < '0' || text.charAt(i) > '9') {
				return null;
			}
		}
		return Long.parseLong(text);
	}

	private record Key(String metric, String provider, String kind) {
	}

}
