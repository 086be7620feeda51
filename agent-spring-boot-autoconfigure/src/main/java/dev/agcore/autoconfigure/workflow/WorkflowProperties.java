package dev.agcore.autoconfigure.workflow;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Durable workflows ({@code agent.workflows.*}). The checkpoint store follows
 * {@code agent.memory.store}: in memory, in the JDBC memory database or in the Redis of
 * the memory stores.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("agent.workflows")
public class WorkflowProperties {

	/**
	 * How long a workflow run's checkpoint is kept after its last write (a finished task,
	 * an interrupt, an answer). A run resumed later starts again from scratch. 0 keeps
	 * checkpoints until deleted.
	 */
	private Duration checkpointTtl = Duration.ofDays(7);

	public Duration getCheckpointTtl() {
		return this.checkpointTtl;
	}

	public void setCheckpointTtl(Duration checkpointTtl) {
		this.checkpointTtl = checkpointTtl;
	}

}
