package dev.agcore.budget;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.bucket4j.Bucket;

/**
 * The tokens one model call reserved in each token limit of a budget (tokens per day, per
 * month) before it was made, settled once to what it used after it answered, failed or
 * was cancelled.
 * <p>
 * Each step is one atomic bucket4j operation on one bucket (a compare-and-swap in Redis,
 * a row locked for one transaction in the database, a lock in this JVM): a reservation
 * takes its tokens only if they are all there ({@code tryConsume}); settling gives back
 * what was not used ({@code addTokens}, never past the bucket's capacity) or charges what
 * was used beyond the reservation ({@code consumeIgnoringRateLimits}, which may leave the
 * bucket in debt).
 */
final class TokenReservation {

	private final List<Bucket> buckets;

	private final long reserved;

	private final long inputEstimate;

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile long used = -1;

	TokenReservation(List<Bucket> buckets, long reserved, long inputEstimate) {
		this.buckets = List.copyOf(buckets);
		this.reserved = reserved;
		this.inputEstimate = inputEstimate;
	}

	/**
	 * Return how many tokens were reserved in each limit.
	 * @return the reservation
	 */
	long reserved() {
		return this.reserved;
	}

	/**
	 * Return the estimate of the request's tokens, what a call cancelled after it was
	 * sent is charged.
	 * @return the estimate
	 */
	long inputEstimate() {
		return this.inputEstimate;
	}

	/**
	 * Record what the call used, once it answered.
	 * @param tokens the tokens used
	 */
	void used(long tokens) {
		this.used = Math.max(0, tokens);
	}

	/**
	 * Return what the call used.
	 * @return the tokens recorded by {@link #used(long)}, or -1 before
	 */
	long used() {
		return this.used;
	}

	/**
	 * Settle every limit to what the call used; only the first settlement counts.
	 * @param tokens the tokens the call used
	 */
	void settle(long tokens) {
		if (!this.settled.compareAndSet(false, true)) {
			return;
		}
		long difference = this.reserved - Math.max(0, tokens);
		for (Bucket bucket : this.buckets) {
			if (difference > 0) {
				bucket.addTokens(difference);
			}
			else if (difference < 0) {
				bucket.consumeIgnoringRateLimits(-difference);
			}
		}
	}

}
