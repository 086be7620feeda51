package dev.agcore.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.run.RunStore;
import dev.agcore.run.jdbc.JdbcRunStore;
import dev.agcore.run.redis.RedisRunStore;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Several instances of one run store, as several application instances would have them:
 * each {@link #open() opened} store has its own connection pool (PostgreSQL, HikariCP) or
 * its own connection factory (Redis), and all share one database under a prefix unique to
 * the benchmark, removed by {@link #close()}. PostgreSQL at 127.0.0.1:5432 (database
 * {@code test}, user {@code postgres}), Redis at 127.0.0.1:6379.
 */
final class RunStoreInstances implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final String kind;

	private final int poolSize;

	private final String prefix = "bench_run_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private final List<AutoCloseable> resources = new ArrayList<>();

	private HikariDataSource admin;

	private LettuceConnectionFactory adminRedis;

	/**
	 * Create the tables (PostgreSQL) of a new, empty store.
	 * @param kind {@code postgresql} or {@code redis}
	 * @param poolSize the connections of each instance's pool (PostgreSQL)
	 */
	RunStoreInstances(String kind, int poolSize) {
		this.kind = kind;
		this.poolSize = poolSize;
		switch (kind) {
			case "postgresql" -> {
				this.admin = dataSource(2);
				JdbcRunStore.SCHEMA.create(this.admin, "postgresql", this.prefix);
			}
			case "redis" -> this.adminRedis = redisConnections();
			default -> throw new IllegalArgumentException("Unknown store '" + kind + "'");
		}
	}

	/**
	 * One more instance of the store, with connections of its own.
	 * @return the store
	 */
	RunStore open() {
		if (this.kind.equals("postgresql")) {
			HikariDataSource dataSource = dataSource(this.poolSize);
			JdbcRunStore store = JdbcRunStore.builder(dataSource)
				.tablePrefix(this.prefix)
				.platform("postgresql")
				.build();
			// closed in reverse: the listening connection before its pool
			this.resources.add(dataSource);
			this.resources.add(store);
			return store;
		}
		LettuceConnectionFactory connections = redisConnections();
		this.resources.add(connections::destroy);
		return new RedisRunStore(new ReactiveStringRedisTemplate(connections), this.prefix, Clock.systemUTC());
	}

	@Override
	public void close() {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			try {
				this.resources.get(i).close();
			}
			catch (Exception ex) {
				// closing what is left matters more
			}
		}
		this.resources.clear();
		if (this.admin != null) {
			JdbcRunStore.SCHEMA.drop(this.admin, this.prefix);
			this.admin.close();
		}
		if (this.adminRedis != null) {
			ReactiveStringRedisTemplate redis = new ReactiveStringRedisTemplate(this.adminRedis);
			redis.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000).build())
				.buffer(500)
				.concatMap((keys) -> redis.delete(keys.toArray(String[]::new)))
				.then()
				.block(TIMEOUT);
			this.adminRedis.destroy();
		}
	}

	private HikariDataSource dataSource(int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:5432/test");
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		return new HikariDataSource(config);
	}

	private static LettuceConnectionFactory redisConnections() {
		LettuceConnectionFactory connections = new LettuceConnectionFactory("127.0.0.1", 6379);
		connections.afterPropertiesSet();
		connections.start();
		return connections;
	}

}
