package dev.agcore.memory.jdbc;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ItemQuery;
import dev.agcore.memory.MemoryItem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the JDBC key-value store does beyond the contract.
 */
class JdbcKeyValueStoreTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDatabases.h2("kv");
		JdbcMemorySchema.create(dataSource, "h2", "kv_");
	}

	@AfterAll
	static void closeDatabase() {
		dataSource.close();
	}

	@Test
	void aKeyLongerThanItsColumnIsRefusedNamingTheLimit() {
		JdbcKeyValueStore store = JdbcKeyValueStore.builder(dataSource).tablePrefix("kv_").build();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.put("ns", "k".repeat(513), AgentJson.mapper().readTree("1")).block(TIMEOUT))
			.withMessageContaining("at most 512 characters");
		store.put("n".repeat(512), "k".repeat(512), AgentJson.mapper().readTree("1")).block(TIMEOUT);
		assertThat(store.keys("n".repeat(512)).block(TIMEOUT)).containsExactly("k".repeat(512));
	}

	@Test
	void aPrefixWithLikeWildcardsMatchesThemLiterally() {
		JdbcKeyValueStore store = JdbcKeyValueStore.builder(dataSource).tablePrefix("kv_").build();
		store.put("like", "50%_off", AgentJson.mapper().readTree("1")).block(TIMEOUT);
		store.put("like", "50xyoff", AgentJson.mapper().readTree("2")).block(TIMEOUT);
		store.put("like", "a!b", AgentJson.mapper().readTree("3")).block(TIMEOUT);
		assertThat(store.list("like", ItemQuery.prefix("50%_")).block(TIMEOUT))
			.extracting(MemoryItem::key)
			.containsExactly("50%_off");
		assertThat(store.list("like", ItemQuery.prefix("a!")).block(TIMEOUT))
			.extracting(MemoryItem::key)
			.containsExactly("a!b");
	}

}
