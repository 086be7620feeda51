package dev.agcore.workflow.jdbc;

import java.time.Duration;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.workflow.CheckpointStore;
import dev.agcore.workflow.CheckpointStoreContract;
import dev.agcore.run.MutableClock;
import org.junit.jupiter.api.AfterEach;

import org.springframework.jdbc.core.JdbcTemplate;

/** The contract on a database; a subclass gives the database and its platform. */
abstract class JdbcCheckpointStoreContract extends CheckpointStoreContract {

	private final MutableClock clock = MutableClock.now();

	private final String prefix = "wfc_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private HikariDataSource dataSource;

	protected abstract HikariDataSource dataSource();

	protected abstract String platform();

	@Override
	protected CheckpointStore store() {
		this.dataSource = dataSource();
		JdbcCheckpointStore.SCHEMA.create(this.dataSource, platform(), this.prefix);
		return new JdbcCheckpointStore(this.dataSource, this.prefix, ttl(), this.clock);
	}

	@AfterEach
	void dropTables() {
		if (this.dataSource != null) {
			JdbcCheckpointStore.SCHEMA.drop(this.dataSource, this.prefix);
			this.dataSource.close();
		}
	}

	@Override
	protected void passTimeToLive() {
		this.clock.advance(ttl().plus(Duration.ofSeconds(1)));
	}

	@Override
	protected void writeNewerFormat(String runId) {
		new JdbcTemplate(this.dataSource).update(
				"UPDATE " + this.prefix + "workflow_checkpoint SET format_version = format_version + 1 WHERE run_id = ?",
				runId);
	}

}
