package dev.agcore.provider.support;

import org.springframework.http.HttpHeaders;

/**
 * Told the headers of every provider response, successful or not, so that rate-limit
 * headers ({@code x-ratelimit-remaining-*}, {@code anthropic-ratelimit-*}) can be
 * recorded. Called on the response thread: implementations must be fast and must not
 * throw.
 */
@FunctionalInterface
public interface RateLimitListener {

	/** A listener that ignores everything. */
	RateLimitListener NONE = (provider, model, headers) -> {
	};

	/**
	 * Called for each response.
	 * @param provider the provider name, as in metrics
	 * @param model the model requested
	 * @param headers the response headers
	 */
	void onHeaders(String provider, String model, HttpHeaders headers);

}
