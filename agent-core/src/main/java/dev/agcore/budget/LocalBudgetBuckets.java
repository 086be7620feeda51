package dev.agcore.budget;

import java.util.LinkedHashMap;
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
 * counts are lost on restart. Beyond a bound, the least recently used buckets are
 * forgotten (their budget starts afresh), so abandoned sessions do not pile up.
 *
 * @since 0.1.0
 */
public final class LocalBudgetBuckets implements BudgetBuckets {

	/** Default bound on the number of buckets kept. */
	public static final int DEFAULT_MAX_BUCKETS = 100_000;

	private final TimeMeter clock;

	private final Map<String, Bucket> buckets;

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
		this.buckets = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
				return size() > maxBuckets;
			}

		};
	}

	@Override
	public synchronized Bucket bucket(String key, Supplier<BucketConfiguration> configuration) {
		return this.buckets.computeIfAbsent(key, (absent) -> {
			LocalBucketBuilder builder = Bucket.builder().withCustomTimePrecision(this.clock);
			for (Bandwidth bandwidth : configuration.get().getBandwidths()) {
				builder.addLimit(bandwidth);
			}
			return builder.build();
		});
	}

	@Override
	public boolean blocking() {
		return false;
	}

}
