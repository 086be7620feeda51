package dev.agcore.autoconfigure.budget;

import javax.sql.DataSource;

import dev.agcore.audit.Auditor;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.memory.MemoryProperties;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration.JdbcMemoryDatabase;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryPurger;
import dev.agcore.autoconfigure.memory.jdbc.JdbcSchemaInitializer;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.LocalBudgetBuckets;
import dev.agcore.budget.ProxyBudgetBuckets;
import dev.agcore.budget.jdbc.JdbcBudgetProxyManager;
import dev.agcore.budget.redis.RedisBudgetBuckets;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static dev.agcore.autoconfigure.support.PropertyChecks.atLeastOne;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of budgets: the
 * {@link BudgetBuckets} where turns and tokens are counted (in memory by default; with
 * {@code agent.memory.store} {@code redis} or {@code jdbc}, or {@code agent.budget.store},
 * in Redis or the database, so a limit holds for every instance), and the
 * {@link AgentBudgets} that give each configured agent its budget middleware. A bucket4j
 * {@link TimeMeter} bean replaces the clock of the buckets (a test's).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = AuditAutoConfiguration.class,
		afterName = { "dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration",
				"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(Bucket.class)
@EnableConfigurationProperties({ BudgetProperties.class, MemoryProperties.class })
public final class BudgetAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentBudgets agentBudgets(BudgetProperties properties, BudgetBuckets buckets,
			ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<Auditor> auditor) {
		return new AgentBudgets(properties, buckets, meterRegistry.getIfUnique(),
				auditor.getIfAvailable(() -> Auditor.NONE));
	}

	@Bean
	@ConditionalOnMissingBean(BudgetBuckets.class)
	LocalBudgetBuckets localBudgetBuckets(BudgetProperties properties, ObjectProvider<TimeMeter> clock) {
		String store = BudgetStore.resolve(properties.getStore(), "in-memory");
		if (!BudgetStore.IN_MEMORY.equals(store)) {
			throw new AgentConfigurationException("agent.budget.store is '" + properties.getStore()
					+ "', which cannot be used here",
					"Set agent.budget.store to 'auto', 'in-memory', 'redis' (with spring-boot-starter-data-redis and "
							+ "bucket4j_jdk17-lettuce) or 'jdbc' (with a DataSource).");
		}
		return new LocalBudgetBuckets(clock.getIfAvailable(() -> TimeMeter.SYSTEM_MILLISECONDS),
				atLeastOne("agent.budget.max-buckets", properties.getMaxBuckets()));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Bucket4jLettuce.class, LettuceConnectionFactory.class })
	@Conditional(BudgetStore.OnRedis.class)
	static class RedisBudgetConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(BudgetBuckets.class)
		StatefulRedisConnection<String, byte[]> agentBudgetRedisConnection(
				ObjectProvider<ReactiveRedisConnectionFactory> connectionFactory) {
			if (!(connectionFactory.getIfAvailable() instanceof LettuceConnectionFactory lettuce)
					|| !(lettuce.getRequiredNativeClient() instanceof RedisClient client)) {
				throw new AgentConfigurationException(
						"Budgets are counted in Redis (agent.budget.store, or agent.memory.store 'redis') but there is "
								+ "no standalone Lettuce Redis connection",
						"Add spring-boot-starter-data-redis with its default Lettuce client and configure "
								+ "spring.data.redis.host, or set agent.budget.store to 'in-memory'.");
			}
			return client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		}

		@Bean
		@ConditionalOnMissingBean
		BudgetBuckets redisBudgetBuckets(StatefulRedisConnection<String, byte[]> agentBudgetRedisConnection,
				BudgetProperties properties, ObjectProvider<TimeMeter> clock) {
			return RedisBudgetBuckets.of(agentBudgetRedisConnection, properties.getRedisKeyPrefix(),
					clock.getIfAvailable());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(EmbeddedDatabaseConnection.class)
	@Conditional(BudgetStore.OnJdbc.class)
	static class JdbcBudgetConfiguration {

		private static final JdbcSchemaInitializer SCHEMA = JdbcSchemaInitializer
			.withScripts(JdbcBudgetProxyManager.SCHEMA, "budget", "The budget database cannot be reached at startup; "
					+ "turns fail with 'memory_unavailable' until it is back");

		@Bean
		@ConditionalOnMissingBean
		JdbcBudgetProxyManager jdbcBudgetProxyManager(ObjectProvider<DataSource> dataSource, MemoryProperties memory,
				ObjectProvider<TimeMeter> clock) {
			DataSource database = dataSource.getIfUnique();
			if (database == null) {
				throw new AgentConfigurationException(
						"Budgets are counted in the database (agent.budget.store, or agent.memory.store 'jdbc') but "
								+ "the application has no single DataSource",
						"Configure spring.datasource.url, or set agent.budget.store to 'in-memory'.");
			}
			String prefix = memory.getJdbc().getTablePrefix();
			SCHEMA.initialize(new JdbcMemoryDatabase(database, prefix), memory.getJdbc());
			TimeMeter meter = clock.getIfAvailable();
			return new JdbcBudgetProxyManager(database, prefix,
					(meter != null) ? ClientSideConfig.getDefault().withClientClock(meter) : ClientSideConfig.getDefault());
		}

		@Bean
		@ConditionalOnMissingBean
		BudgetBuckets jdbcBudgetBuckets(JdbcBudgetProxyManager jdbcBudgetProxyManager) {
			return new ProxyBudgetBuckets(jdbcBudgetProxyManager);
		}

		/** Rows of full buckets go with the memory stores' purge, every agent.memory.jdbc.purge-interval. */
		@Bean
		JdbcMemoryPurger.Purge jdbcBudgetPurge(JdbcBudgetProxyManager jdbcBudgetProxyManager) {
			return new JdbcMemoryPurger.Purge("budget buckets", jdbcBudgetProxyManager::purgeExpired);
		}

	}

}
