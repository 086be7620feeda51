package dev.agcore.autoconfigure.workflow;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryAutoConfiguration;
import dev.agcore.autoconfigure.memory.jdbc.JdbcMemoryPurger;
import dev.agcore.json.AgentJson;
import dev.agcore.workflow.CheckpointStore;
import dev.agcore.workflow.InMemoryCheckpointStore;
import dev.agcore.workflow.Workflow;
import dev.agcore.workflow.WorkflowEngine;
import dev.agcore.workflow.WorkflowRegistry;
import dev.agcore.workflow.WorkflowRunExecutor;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.jdbc.JdbcCheckpointStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

class WorkflowAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(WorkflowAutoConfiguration.class));

	@BeforeEach
	void resetCounters() {
		ReportWorkflow.resetCounters();
	}

	@Test
	void entrypointMethodsAndWorkflowBeansAreRegisteredWithAnInMemoryStore() {
		this.contextRunner.withUserConfiguration(ReportWorkflow.ReportConfiguration.class)
			.withBean("echo", Workflow.class, () -> Workflow.of("echo", (ctx, input) -> input))
			.run((context) -> {
				assertThat(context).getBean(CheckpointStore.class).isInstanceOf(InMemoryCheckpointStore.class);
				assertThat(context.getBean(WorkflowRegistry.class).names()).containsExactlyInAnyOrder("echo", "report");
				assertThat(context.getBean(WorkflowRunExecutor.class).kind()).isEqualTo("workflow");
				JsonNode input = AgentJson.mapper().createObjectNode().put("topic", "otters");
				WorkflowEngine engine = context.getBean(WorkflowEngine.class);
				assertThat(engine.run("echo", "e1", input, List.of()).block(TIMEOUT).value()).isEqualTo(input);
				assertThat(engine.run("report", "r1", input, List.of()).block(TIMEOUT).isInterrupted()).isTrue();
				assertThat(engine.store().load("r1").block(TIMEOUT).tasks()).containsOnlyKeys("fetch#0",
						"write-draft#0");
			});
	}

	@Test
	void taskOutsideAWorkflowIsAPlainCall() {
		this.contextRunner.withUserConfiguration(ReportWorkflow.ReportConfiguration.class).run((context) -> {
			ReportWorkflow.ReportTasks tasks = context.getBean(ReportWorkflow.ReportTasks.class);
			assertThat(org.springframework.aop.support.AopUtils.isAopProxy(tasks)).isTrue();
			tasks.fetch("a");
			tasks.fetch("a");
			assertThat(ReportWorkflow.FETCHES).hasValue(2);
		});
	}

	@Test
	void expiredJdbcCheckpointsArePurgedWithTheMemoryStores() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcMemoryAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"agent.memory.store=jdbc", "agent.workflows.checkpoint-ttl=50ms")
			.run((context) -> {
				assertThat(context).hasNotFailed().getBean(CheckpointStore.class).isInstanceOf(JdbcCheckpointStore.class);
				CheckpointStore store = context.getBean(CheckpointStore.class);
				store.saveTask("old-run", "fetch#0", AgentJson.mapper().getNodeFactory().textNode("facts"))
					.block(TIMEOUT);
				Thread.sleep(100);
				long purged = context.getBean(JdbcMemoryPurger.class).purgeNow();
				assertThat(purged).isGreaterThanOrEqualTo(1);
				int rows = new JdbcTemplate(context.getBean(DataSource.class))
					.queryForObject("SELECT COUNT(*) FROM agent_workflow_checkpoint", Integer.class);
				assertThat(rows).isZero();
			});
	}

	@Test
	void checkpointTtlIsConfigurable() {
		this.contextRunner.withPropertyValues("agent.workflows.checkpoint-ttl=-1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.workflows.checkpoint-ttl"));
	}

	@Test
	void invalidEntrypointSignatureFailsNamingBeanAndMethod() {
		this.contextRunner.withBean("broken", Broken.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("'broken'")
				.hasMessageContaining("twoInputs"));
	}

	@Test
	void duplicateWorkflowNamesFailStartup() {
		this.contextRunner.withBean("one", Workflow.class, () -> Workflow.of("same", (ctx, input) -> null))
			.withBean("two", Workflow.class, () -> Workflow.of("same", (ctx, input) -> null))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("'same'"));
	}

	static class Broken {

		@Entrypoint
		public String twoInputs(String first, Integer second) {
			return first + second;
		}

	}

}
