package dev.agcore.budget;

import java.util.function.Supplier;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;

/**
 * Where the token buckets of budgets are kept: in this JVM ({@link LocalBudgetBuckets}),
 * or in a store every instance of the application shares
 * ({@link ProxyBudgetBuckets} over a bucket4j {@code ProxyManager}: Redis, a database).
 *
 * @since 0.1.0
 */
public interface BudgetBuckets {

	/**
	 * Return the bucket of a key, made with the configuration when it does not exist yet.
	 * @param key the key, such as {@code support:turns_per_minute:u:alice}
	 * @param configuration the bucket's limits
	 * @return the bucket
	 */
	Bucket bucket(String key, Supplier<BucketConfiguration> configuration);

	/**
	 * Return whether using a bucket waits for I/O, so that it must run where blocking is
	 * allowed.
	 * @return whether bucket calls block
	 */
	default boolean blocking() {
		return true;
	}

}
