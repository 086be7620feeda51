package dev.agcore.autoconfigure.model;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateLimitMetrics}.
 */
class RateLimitMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RateLimitMetrics metrics = new RateLimitMetrics(this.registry);

	@Test
	void openAiHeadersBecomeGauges() {
		HttpHeaders headers = new HttpHeaders();
		headers.add("x-ratelimit-remaining-requests", "59");
		headers.add("x-ratelimit-limit-requests", "60");
		headers.add("x-ratelimit-remaining-tokens", "149984");
		headers.add("x-ratelimit-limit-tokens", "150000");

		this.metrics.onHeaders("openai", "gpt-4o", headers);

		assertThat(gauge("agent.ratelimit.remaining", "openai", "requests")).isEqualTo(59);
		assertThat(gauge("agent.ratelimit.limit", "openai", "requests")).isEqualTo(60);
		assertThat(gauge("agent.ratelimit.remaining", "openai", "tokens")).isEqualTo(149984);
		assertThat(gauge("agent.ratelimit.limit", "openai", "tokens")).isEqualTo(150000);
	}

	@Test
	void anthropicHeadersBecomeGaugesAndFollowTheLatestResponse() {
		HttpHeaders first = new HttpHeaders();
		first.add("anthropic-ratelimit-requests-remaining", "49");
		first.add("anthropic-ratelimit-input-tokens-remaining", "39000");
		first.add("anthropic-ratelimit-output-tokens-limit", "8000");
		first.add("anthropic-ratelimit-tokens-remaining", "47000");
		HttpHeaders second = new HttpHeaders();
		second.add("anthropic-ratelimit-requests-remaining", "48");

		this.metrics.onHeaders("claude", "claude-sonnet-4-5", first);
		this.metrics.onHeaders("claude", "claude-sonnet-4-5", second);

		assertThat(gauge("agent.ratelimit.remaining", "claude", "requests")).isEqualTo(48);
		assertThat(gauge("agent.ratelimit.remaining", "claude", "input-tokens")).isEqualTo(39000);
		assertThat(gauge("agent.ratelimit.limit", "claude", "output-tokens")).isEqualTo(8000);
		assertThat(gauge("agent.ratelimit.remaining", "claude", "tokens")).isEqualTo(47000);
	}

	@Test
	void garbageAndUnknownHeadersAreIgnored() {
		HttpHeaders headers = new HttpHeaders();
		headers.add("x-ratelimit-remaining-requests", "many");
		headers.add("x-ratelimit-remaining-tokens", "-5");
		headers.add("x-ratelimit-limit-tokens", "1".repeat(40));
		headers.add("x-ratelimit-remaining-bananas", "3");
		headers.add("x-ratelimit-limit-requests", " 100 ");

		this.metrics.onHeaders("openai", "gpt-4o", headers);

		assertThat(this.registry.getMeters()).singleElement()
			.satisfies((meter) -> assertThat(meter.getId().getTag("kind")).isEqualTo("requests"));
		assertThat(gauge("agent.ratelimit.limit", "openai", "requests")).isEqualTo(100);
	}

	private double gauge(String name, String provider, String kind) {
		return this.registry.get(name).tags("provider", provider, "kind", kind).gauge().value();
	}

}
