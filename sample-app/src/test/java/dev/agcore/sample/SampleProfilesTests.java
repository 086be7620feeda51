package dev.agcore.sample;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.memory.redis.RedisConversationStore;
import dev.agcore.run.jdbc.JdbcRunStore;
import dev.agcore.workflow.jdbc.JdbcCheckpointStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;

import static dev.agcore.sample.SampleHttp.get;
import static dev.agcore.sample.SampleHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's {@code postgres} and {@code redis} profiles, on the real servers
 * (PostgreSQL 127.0.0.1:5432 database {@code test}, Redis 127.0.0.1:6379): a conversation
 * goes to that store and is read back over HTTP. Skipped when the server is not running,
 * failed on CI.
 */
class SampleProfilesTests {

	@TempDir
	Path dataDirectory;

	@Test
	void postgresProfileKeepsConversationsInPostgres() throws SQLException {
		Services.require("PostgreSQL", "127.0.0.1", 5432);
		String prefix = "sample_profile_" + UUID.randomUUID().toString().substring(0, 8) + "_";
		try (ConfigurableApplicationContext context = start("postgres", "--agent.memory.jdbc.table-prefix=" + prefix)) {
			DataSource dataSource = context.getBean(DataSource.class);
			try {
				try (Connection connection = dataSource.getConnection()) {
					assertThat(connection.getMetaData().getURL()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/test");
				}
				assertThat(context.getBean(ConversationStore.class)).isInstanceOf(JdbcConversationStore.class);
				assertConversationIsKept(context, "postgres");
			}
			finally {
				JdbcMemorySchema.drop(dataSource, prefix);
				JdbcRunStore.SCHEMA.drop(dataSource, prefix);
				JdbcCheckpointStore.SCHEMA.drop(dataSource, prefix);
			}
		}
	}

	@Test
	void redisProfileKeepsConversationsInRedis() {
		Services.require("Redis", "127.0.0.1", 6379);
		String prefix = "agcore-sample-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		try (ConfigurableApplicationContext context = start("redis", "--agent.memory.redis.key-prefix=" + prefix)) {
			ReactiveStringRedisTemplate redis = new ReactiveStringRedisTemplate(
					context.getBean(ReactiveRedisConnectionFactory.class));
			try {
				assertThat(context.getBean(ConversationStore.class)).isInstanceOf(RedisConversationStore.class);
				assertConversationIsKept(context, "redis");
				assertThat(redis.scan(ScanOptions.scanOptions().match(prefix + "*").build())
					.collectList()
					.block(Duration.ofSeconds(10))).isNotEmpty();
			}
			finally {
				redis.scan(ScanOptions.scanOptions().match(prefix + "*").build())
					.flatMap(redis::delete)
					.blockLast(Duration.ofSeconds(10));
			}
		}
	}

	private void assertConversationIsKept(ConfigurableApplicationContext context, String profile) {
		String session = profile + "-" + UUID.randomUUID();
		JsonNode answer = post(context, "/agents/assistant/invoke",
				Map.of("sessionId", session, "message", "Convert 10 km to miles"));
		assertThat(answer.get("output").asString()).isEqualTo("Here is what I found: 10 km = 6.21 mi");
		JsonNode history = get(context, "/agents/assistant/sessions/" + session + "/messages");
		assertThat(history.toString()).contains("Convert 10 km to miles").contains("10 km = 6.21 mi");
	}

	private ConfigurableApplicationContext start(String profile, String... more) {
		String[] args = new String[3 + more.length];
		args[0] = "--server.port=0";
		args[1] = "--spring.profiles.active=" + profile;
		args[2] = "--sample.data-dir=" + this.dataDirectory;
		System.arraycopy(more, 0, args, 3, more.length);
		return new SpringApplicationBuilder(SampleApplication.class).run(args);
	}

}
