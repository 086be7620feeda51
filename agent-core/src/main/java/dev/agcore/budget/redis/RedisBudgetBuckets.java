package dev.agcore.budget.redis;

import java.time.Duration;
import java.util.Objects;

import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.ProxyBudgetBuckets;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * Budgets kept in Redis by bucket4j's Lettuce backend (compare-and-swap in a Lua script),
 * so every instance on the same Redis counts against the same buckets. Keys are the
 * prefix followed by the bucket's key; each expires a minute after its bucket would be
 * full again, which changes nothing a limit decides.
 *
 * @since 0.1.0
 */
public final class RedisBudgetBuckets {

	/** The key prefix unless another is given. */
	public static final String DEFAULT_KEY_PREFIX = "agent:budget:";

	private RedisBudgetBuckets() {
	}

	/**
	 * Create budgets on a Redis connection.
	 * @param connection a connection with string keys and byte-array values
	 * @param keyPrefix put before every bucket's key
	 * @param clock the buckets' clock, or {@code null} for Redis-independent wall-clock
	 * time of this JVM (bucket4j's default)
	 * @return the budgets' buckets
	 */
	public static BudgetBuckets of(StatefulRedisConnection<String, byte[]> connection, String keyPrefix,
			@Nullable TimeMeter clock) {
		Objects.requireNonNull(connection, "'connection' must not be null");
		Objects.requireNonNull(keyPrefix, "'keyPrefix' must not be null");
		Bucket4jLettuce.LettuceBasedProxyManagerBuilder<String> builder = Bucket4jLettuce.casBasedBuilder(connection)
			.expirationAfterWrite(
					ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofMinutes(1)));
		if (clock != null) {
			builder.clientClock(clock);
		}
		return new ProxyBudgetBuckets(builder.build().withMapper((String key) -> keyPrefix + key));
	}

}
