package dev.agcore.run.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.memory.jdbc.JdbcOperations;
import dev.agcore.run.Run;
import dev.agcore.run.RunIdempotency;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run tables of a release before idempotency keys were scoped (issue 27), upgraded by
 * running the current script over them: old runs stay readable, and two principals may
 * then use the same key, which the old unique index on the raw key refused.
 */
class JdbcRunSchemaUpgradeTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mariadb" })
	void oldTablesAreUpgradedInPlace(String platform) throws Exception {
		Supplier<HikariDataSource> pool = switch (platform) {
			case "postgresql" -> {
				ServiceAvailability.require("PostgreSQL", RunTestDatabases.HOST, RunTestDatabases.POSTGRES_PORT);
				yield RunTestDatabases::postgres;
			}
			case "mariadb" -> {
				ServiceAvailability.require("MariaDB", RunTestDatabases.HOST, RunTestDatabases.MARIADB_PORT);
				yield RunTestDatabases::mariadb;
			}
			default -> RunTestDatabases::h2;
		};
		String prefix = RunTestDatabases.prefix("runs_upgrade");
		try (HikariDataSource dataSource = pool.get()) {
			try {
				JdbcOperations.execute(dataSource,
						JdbcOperations.statements(oldScript(platform).replace("${prefix}", prefix)));
				JdbcTemplate jdbc = new JdbcTemplate(dataSource);
				jdbc.update("INSERT INTO " + prefix + "runs (id, kind, target, session_id, input, idempotency_key, "
						+ "status, available_at, attempts, cancel_requested, last_event, created_at) VALUES "
						+ "('old-run', 'agent', 'assistant', 's1', '{\"message\":\"hi\"}', 'shared-key', 'QUEUED', "
						+ "CURRENT_TIMESTAMP, 0, FALSE, 0, CURRENT_TIMESTAMP)");

				JdbcRunStore.SCHEMA.create(dataSource, platform, prefix);

				try (JdbcRunStore store = JdbcRunStore.builder(dataSource).tablePrefix(prefix).build()) {
					Run old = store.find("old-run").block(TIMEOUT);
					assertThat(old).isNotNull();
					assertThat(old.status()).isEqualTo(RunStatus.QUEUED);
					assertThat(old.request().idempotencyKey()).isEqualTo("shared-key");
					RunRequest request = RunRequest.of("agent", "assistant", "s1", AgentJson.mapper()
						.readTree("{\"message\":\"hi\"}")).withIdempotencyKey("shared-key");
					Run alices = store.submit(request, RunIdempotency.of(request, "alice")).block(TIMEOUT);
					Run bobs = store.submit(request, RunIdempotency.of(request, "bob")).block(TIMEOUT);
					assertThat(alices.id()).isNotIn("old-run", bobs.id());
					assertThat(store.submit(request, RunIdempotency.of(request, "alice")).block(TIMEOUT).id())
						.isEqualTo(alices.id());
				}
			}
			finally {
				JdbcRunStore.SCHEMA.drop(dataSource, prefix);
			}
		}
	}

	private static String oldScript(String platform) throws IOException {
		try (InputStream in = JdbcRunSchemaUpgradeTests.class
			.getResourceAsStream("/dev/agcore/run/jdbc/before-issue-27/schema-" + platform + ".sql")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
