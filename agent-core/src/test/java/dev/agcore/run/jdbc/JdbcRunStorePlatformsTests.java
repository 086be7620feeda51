package dev.agcore.run.jdbc;

import dev.agcore.memory.MemoryException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The JDBC run store refuses databases other than PostgreSQL, H2 and MariaDB (each of
 * which runs the store contract: {@link PostgresRunStoreTests}, {@link H2RunStoreTests},
 * {@link MariaDbRunStoreTests}).
 */
class JdbcRunStorePlatformsTests {

	@Test
	void refusesOtherPlatforms() {
		assertThatExceptionOfType(MemoryException.class)
			.isThrownBy(() -> JdbcRunStore.builder(RunTestDatabases.h2()).platform("oracle"))
			.withMessageContaining("PostgreSQL");
	}

}
