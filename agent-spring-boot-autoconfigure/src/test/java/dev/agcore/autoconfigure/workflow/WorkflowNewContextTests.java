package dev.agcore.autoconfigure.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.redis.RedisMemoryAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.run.Run;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunRequest;
import dev.agcore.run.RunStatus;
import dev.agcore.workflow.CheckpointStore;
import dev.agcore.workflow.WorkflowEngine;
import dev.agcore.workflow.WorkflowResult;
import dev.agcore.workflow.WorkflowRunExecutor;
import dev.agcore.workflow.jdbc.JdbcCheckpointStore;
import dev.agcore.workflow.redis.RedisCheckpointStore;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test: a workflow of three {@code @Task} methods interrupted after the second
 * is resumed in a new application context on the same PostgreSQL database (and on the
 * same Redis): the first two tasks do not run again, the third does. Skipped when the
 * server is not running, failed on CI.
 */
class WorkflowNewContextTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final JsonNode INPUT = AgentJson.mapper().createObjectNode().put("topic", "otters");

	@BeforeEach
	void resetCounters() {
		ReportWorkflow.resetCounters();
	}

	@Test
	void resumedOnPostgresInANewContextRunsOnlyTheThirdTask() {
		LocalServices.require("PostgreSQL", 5432);
		String prefix = "wf_" + UUID.randomUUID().toString().substring(0, 8) + "_";
		ApplicationContextRunner instance = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcMemoryAutoConfiguration.class, WorkflowAutoConfiguration.class))
			.withUserConfiguration(ReportWorkflow.ReportConfiguration.class)
			.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
					"agent.memory.jdbc.table-prefix=" + prefix, "spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
					"spring.datasource.username=postgres");
		String runId = "run-" + UUID.randomUUID();
		try {
			instance.run((first) -> {
				assertThat(first).getBean(CheckpointStore.class).isInstanceOf(JdbcCheckpointStore.class);
				List<RunEmission> emissions = first.getBean(WorkflowRunExecutor.class)
					.execute(run(runId, null))
					.collectList()
					.block(TIMEOUT);
				RunEmission end = emissions.get(emissions.size() - 1);
				assertThat(end.outcome().status()).isEqualTo(RunStatus.INTERRUPTED);
				assertThat(end.outcome().result().path("draft").asString()).isEqualTo("draft of facts about otters");
			});
			assertThat(ReportWorkflow.FETCHES).hasValue(1);
			assertThat(ReportWorkflow.DRAFTS).hasValue(1);
			assertThat(ReportWorkflow.PUBLISHES).hasValue(0);
			instance.run((second) -> {
				JsonNode approval = AgentJson.mapper().createObjectNode().put("approved", true);
				List<RunEmission> emissions = second.getBean(WorkflowRunExecutor.class)
					.execute(run(runId, approval))
					.collectList()
					.block(TIMEOUT);
				assertThat(emissions).extracting(RunEmission::type)
					.containsExactly("task_completed", "task_completed", "task_started", "task_completed", "completed");
				RunEmission end = emissions.get(emissions.size() - 1);
				assertThat(end.outcome().status()).isEqualTo(RunStatus.COMPLETED);
				assertThat(end.outcome().result().path("text").asString()).isEqualTo("DRAFT OF FACTS ABOUT OTTERS");
				assertThat(end.outcome().result().path("approved").asBoolean()).isTrue();
			});
			assertThat(ReportWorkflow.FETCHES).hasValue(1);
			assertThat(ReportWorkflow.DRAFTS).hasValue(1);
			assertThat(ReportWorkflow.PUBLISHES).hasValue(1);
		}
		finally {
			instance.run((context) -> {
				DataSource dataSource = context.getBean(DataSource.class);
				JdbcCheckpointStore.SCHEMA.drop(dataSource, prefix);
				JdbcMemorySchema.drop(dataSource, prefix);
			});
		}
	}

	@Test
	void resumedOnRedisInANewContextRunsOnlyTheThirdTask() {
		LocalServices.require("Redis", 6379);
		String keyPrefix = "wf-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		ApplicationContextRunner instance = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class, RedisMemoryAutoConfiguration.class,
					WorkflowAutoConfiguration.class))
			.withUserConfiguration(ReportWorkflow.ReportConfiguration.class)
			.withPropertyValues("agent.memory.store=redis", "agent.memory.redis.key-prefix=" + keyPrefix);
		String runId = "run-" + UUID.randomUUID();
		instance.run((first) -> {
			assertThat(first).getBean(CheckpointStore.class).isInstanceOf(RedisCheckpointStore.class);
			WorkflowResult result = first.getBean(WorkflowEngine.class).run("report", runId, INPUT, List.of()).block(TIMEOUT);
			assertThat(result.isInterrupted()).isTrue();
		});
		instance.run((second) -> {
			WorkflowEngine engine = second.getBean(WorkflowEngine.class);
			JsonNode approval = AgentJson.mapper().createObjectNode().put("approved", false);
			WorkflowResult result = engine.run("report", runId, INPUT, List.of(approval)).block(TIMEOUT);
			assertThat(result.status()).isEqualTo(WorkflowResult.Status.COMPLETED);
			assertThat(result.value().path("approved").asBoolean()).isFalse();
			engine.store().delete(runId).block(TIMEOUT);
		});
		assertThat(ReportWorkflow.FETCHES).hasValue(1);
		assertThat(ReportWorkflow.DRAFTS).hasValue(1);
		assertThat(ReportWorkflow.PUBLISHES).hasValue(1);
	}

	private static Run run(String runId, JsonNode resume) {
		return new Run(runId, RunRequest.of("workflow", "report", "s1", INPUT), RunStatus.RUNNING, resume, null, null,
				1, false, "worker", null, Instant.now(), null, null);
	}

}
