package dev.agcore.budget;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;

/**
 * Budgets kept in this JVM: each instance of the application counts on its own, and
 * counts are lost on restart.
 * <p>
 * Memory is bounded by a number of buckets, but a bucket still inside its window is never
 * forgotten, since forgetting it would hand its principal a fresh budget. Only buckets
 * that are full again are dropped: such a bucket decides nothing a new one would not (a
 * new one is, if anything, stricter, its window starting at its first use). When every
 * bucket is still in use and the bound is reached, a new key is refused with a
 * {@link BudgetBucketsFullException}, which the budget reports as a refused turn.
 *
 * @since 0.1.0
 */
public final class LocalBudgetBuckets implements BudgetBuckets {

	/** Default bound on the number of buckets kept. */
	public static final int DEFAULT_MAX_BUCKETS = 100_000;

	/** How long a sweep that freed nothing keeps new keys from sweeping again. */
	private static final long SWEEP_PAUSE_NANOS = Duration.ofSeconds(1).toNanos();

	private final TimeMeter clock;

	private final int maxBuckets;

	private final Map<String, Entry> buckets = new HashMap<>();

	private long lastFutileSweep = Long.MIN_VALUE;

	/**
	 * Create buckets on the system clock with the default bound.
	 */
	public LocalBudgetBuckets() {
		this(TimeMeter.SYSTEM_MILLISECONDS, DEFAULT_MAX_BUCKETS);
	}

	/**
	 * Create buckets.
	 * @param clock the time of the buckets (a test's clock)
	 * @param maxBuckets the most buckets kept, at least 1
	 */
	public LocalBudgetBuckets(TimeMeter clock, int maxBuckets) {
		this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
		if (maxBuckets < 1) {
			throw new IllegalArgumentException("'maxBuckets' must be at least 1, was " + maxBuckets);
		}
		this.maxBuckets = maxBuckets;
	}

	@Override
	public synchronized Bucket bucket(String key, Supplier<BucketConfiguration> configuration) {
		Entry entry = this.buckets.get(key);
		if (entry != null) {
			return entry.bucket();
		}
		if (this.buckets.size() >= this.maxBuckets && !sweep()) {
			throw new BudgetBucketsFullException("The in-memory budget store holds " + this.maxBuckets
					+ " buckets still inside their window and cannot count a new principal or session");
		}
		BucketConfiguration limits = configuration.get();
		LocalBucketBuilder builder = Bucket.builder().withCustomTimePrecision(this.clock);
		long capacity = Long.MAX_VALUE;
		for (Bandwidth bandwidth : limits.getBandwidths()) {
			builder.addLimit(bandwidth);
			capacity = Math.min(capacity, bandwidth.getCapacity());
		}
		Bucket bucket = builder.build();
		this.buckets.put(key, new Entry(bucket, capacity));
		return bucket;
	}

	/**
	 * Return how many buckets are kept.
	 * @return the count
	 */
	public synchronized int size() {
		return this.buckets.size();
	}

	/** Drop the buckets that are full again; whether there is room for one more. */
	private boolean sweep() {
		long now = this.clock.currentTimeNanos();
		if (this.lastFutileSweep != Long.MIN_VALUE && now - this.lastFutileSweep < SWEEP_PAUSE_NANOS) {
			// every bucket was in use a moment ago: a flood of new keys must not rescan them each time
			return false;
		}
		for (Iterator<Entry> entries = this.buckets.values().iterator(); entries.hasNext();) {
			Entry entry = entries.next();
			if (entry.bucket().getAvailableTokens() >= entry.capacity()) {
				entries.remove();
			}
		}
		boolean room = this.buckets.size() < this.maxBuckets;
		this.lastFutileSweep = room ? Long.MIN_VALUE : now;
		return room;
	}

	@Override
	public boolean blocking() {
		return false;
	}

	/** A bucket and the capacity at which it is full again, and so may be forgotten. */
	private record Entry(Bucket bucket, long capacity) {
	}

}
