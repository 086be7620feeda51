package dev.agcore.budget;

import java.util.Objects;
import java.util.function.Supplier;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;

/**
 * Budgets kept in a store every instance shares, through a bucket4j {@link ProxyManager}:
 * {@code RedisBudgetBuckets} (Lettuce), {@code JdbcBudgetProxyManager} (PostgreSQL, H2,
 * MariaDB), or any other bucket4j backend. A limit then holds for the whole deployment.
 *
 * @since 0.1.0
 */
public final class ProxyBudgetBuckets implements BudgetBuckets {

	private final ProxyManager<String> proxyManager;

	/**
	 * Create budgets on a proxy manager.
	 * @param proxyManager the store of the buckets
	 */
	public ProxyBudgetBuckets(ProxyManager<String> proxyManager) {
		this.proxyManager = Objects.requireNonNull(proxyManager, "'proxyManager' must not be null");
	}

	@Override
	public Bucket bucket(String key, Supplier<BucketConfiguration> configuration) {
		return this.proxyManager.builder().build(key, configuration);
	}

}
