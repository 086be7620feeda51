package dev.agcore.docs.workflows;

import java.time.Duration;
import java.util.List;

import dev.agcore.json.AgentJson;
import dev.agcore.workflow.WorkflowEngine;
import dev.agcore.workflow.WorkflowEvent;
import dev.agcore.workflow.WorkflowResult;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** The workflows of docs/workflows.md, run by the starter's engine. */
class WorkflowsTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withUserConfiguration(Application.class);

	@Test
	void theAnnotatedWorkflowWaitsForAHumanThenPublishes() {
		this.runner.withUserConfiguration(ReportTasks.class, ReportWorkflow.class).run((context) -> {
			assertThat(context).hasNotFailed();
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			JsonNode input = json("{\"topic\":\"tea\"}");
			WorkflowResult first = engine.run("report", "r1", input, List.of()).block(Duration.ofSeconds(10));
			assertThat(first.status()).isEqualTo(WorkflowResult.Status.INTERRUPTED);
			assertThat(first.value().path("draft").asString()).isEqualTo("Draft from Facts about tea");
			WorkflowResult done = engine.run("report", "r1", input, List.of(json("{\"approved\":true}")))
				.block(Duration.ofSeconds(10));
			assertThat(done.status()).isEqualTo(WorkflowResult.Status.COMPLETED);
			assertThat(done.value().path("published").asBoolean()).isTrue();
			assertThat(done.value().path("text").asString()).isEqualTo("Draft from Facts about tea");
		});
	}

	@Test
	void theBuilderWorkflowReplaysItsCheckpointedTasks() {
		this.runner.withUserConfiguration(ReviewWorkflow.class).run((context) -> {
			assertThat(context).hasNotFailed();
			WorkflowEngine engine = context.getBean(WorkflowEngine.class);
			JsonNode input = json("{\"topic\":\"tea\"}");
			List<WorkflowEvent> events = engine.stream("review", "r2", input, List.of())
				.collectList()
				.block(Duration.ofSeconds(10));
			assertThat(events.toString()).contains("progress");
			WorkflowResult done = engine.run("review", "r2", input, List.of(json("{\"approved\":true}")))
				.block(Duration.ofSeconds(10));
			assertThat(done.status()).isEqualTo(WorkflowResult.Status.COMPLETED);
			assertThat(done.value().asString()).isEqualTo("A draft about tea");
			assertThat(context.getBean(ReviewWorkflow.Writer.class).drafts).isEqualTo(1);
		});
	}

	private static JsonNode json(String json) {
		return AgentJson.mapper().readTree(json);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
