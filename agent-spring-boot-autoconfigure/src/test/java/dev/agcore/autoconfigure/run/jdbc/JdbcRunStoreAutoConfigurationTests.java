package dev.agcore.autoconfigure.run.jdbc;

import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.run.Run;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStore;
import dev.agcore.run.jdbc.JdbcRunStore;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcRunStoreAutoConfiguration}, on H2 in memory.
 */
class JdbcRunStoreAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class,
				JdbcRunStoreAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void withTheJdbcMemoryStoreRunsAreKeptInItsDatabaseWhoseTablesAreCreated() {
		this.contextRunner.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.table-prefix=app_")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcRunStore.class);
				DataSource dataSource = context.getBean(DataSource.class);
				assertThat(JdbcRunStore.SCHEMA.verify(dataSource, "app_")).isTrue();
				RunStore store = context.getBean(RunStore.class);
				Run run = store.submit(RunRequest.of("agent", "assistant", "s",
						JsonNodeFactory.instance.objectNode().put("message", "hi"))).block(TIMEOUT);
				assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM app_runs WHERE id = ?",
						Integer.class, run.id())).isEqualTo(1);
			});
	}

	@Test
	void withoutTheJdbcMemoryStoreThereIsNoJdbcRunStore() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(RunStore.class));
	}

	@Test
	void aRunStoreOfTheApplicationWins() {
		this.contextRunner.withPropertyValues("agent.memory.store=jdbc")
			.withBean("myRuns", RunStore.class, () -> org.mockito.Mockito.mock(RunStore.class))
			.run((context) -> assertThat(context).hasSingleBean(RunStore.class).doesNotHaveBean(JdbcRunStore.class));
	}

}
