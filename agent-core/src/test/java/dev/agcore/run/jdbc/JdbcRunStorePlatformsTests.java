package dev.agcore.run.jdbc;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunOutcome;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.run.RunStore.ClaimSettings;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The run store on H2 and MariaDB, for development: the scripts create working tables,
 * claims, events and purges work, and other databases are refused.
 */
class JdbcRunStorePlatformsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Test
	void worksOnH2() {
		try (HikariDataSource dataSource = RunTestDatabases.h2()) {
			exercise(dataSource, "h2");
		}
	}

	@Test
	void worksOnMariaDb() {
		ServiceAvailability.require("MariaDB", RunTestDatabases.HOST, RunTestDatabases.MARIADB_PORT);
		try (HikariDataSource dataSource = RunTestDatabases.mariadb()) {
			exercise(dataSource, "mariadb");
		}
	}

	@Test
	void refusesOtherPlatforms() {
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> JdbcRunStore.builder(RunTestDatabases.h2()).platform("oracle"))
			.withMessageContaining("PostgreSQL");
	}

	private static void exercise(HikariDataSource dataSource, String platform) {
		String prefix = RunTestDatabases.prefix("runs");
		JdbcRunSchema.create(dataSource, platform, prefix);
		JdbcRunSchema.create(dataSource, platform, prefix);
		RunTestDatabases.MutableClock clock = new RunTestDatabases.MutableClock();
		try (JdbcRunStore store = JdbcRunStore.builder(dataSource).tablePrefix(prefix).clock(clock).build()) {
			RunRequest request = RunRequest.of("agent", "assistant", "s",
					JsonNodeFactory.instance.objectNode().put("message", "hi"))
				.withIdempotencyKey("k");
			Run run = store.submit(request).block(TIMEOUT);
			assertThat(store.submit(request).block(TIMEOUT).id()).isEqualTo(run.id());
			clock.advance(Duration.ofSeconds(1));
			store.submit(request.withIdempotencyKey(null)).block(TIMEOUT);

			ClaimSettings settings = new ClaimSettings(5, Duration.ofSeconds(30), 1, 3);
			assertThat(store.claim("w1", settings).map(Run::id).collectList().block(TIMEOUT))
				.containsExactly(run.id());
			store.append(run.id(), "text", JsonNodeFactory.instance.objectNode().put("n", 1)).block(TIMEOUT);
			store.append(run.id(), RunEvent.COMPLETED, JsonNodeFactory.instance.objectNode()).block(TIMEOUT);
			assertThat(store.finish(run.id(), "w1", RunOutcome.completed(null)).block(TIMEOUT)).isTrue();

			assertThat(store.read(run.id(), 0, 10).map(RunEvent::sequence).collectList().block(TIMEOUT))
				.containsExactly(1L, 2L);
			assertThat(store.find(run.id()).block(TIMEOUT).status()).isEqualTo(RunStatus.COMPLETED);
			assertThat(store.claim("w1", settings).collectList().block(TIMEOUT)).hasSize(1);
			clock.advance(Duration.ofDays(2));
			assertThat(store.purge(Duration.ofDays(1)).block(TIMEOUT)).isEqualTo(1L);
			assertThat(store.read(run.id(), 0, 10).collectList().block(TIMEOUT)).isEmpty();
		}
		finally {
			JdbcRunSchema.drop(dataSource, prefix);
		}
	}

}
