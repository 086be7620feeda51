package dev.agcore.autoconfigure.workflow;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.workflow.WorkflowContext;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.annotation.Task;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A workflow of three annotated tasks with an interrupt after the second, counting the
 * calls of each task in static counters shared by every application context of a test.
 */
class ReportWorkflow {

	static final AtomicInteger FETCHES = new AtomicInteger();

	static final AtomicInteger DRAFTS = new AtomicInteger();

	static final AtomicInteger PUBLISHES = new AtomicInteger();

	private final ReportTasks tasks;

	ReportWorkflow(ReportTasks tasks) {
		this.tasks = tasks;
	}

	static void resetCounters() {
		FETCHES.set(0);
		DRAFTS.set(0);
		PUBLISHES.set(0);
	}

	@Entrypoint(name = "report")
	public Report report(Topic topic, WorkflowContext context) {
		String facts = this.tasks.fetch(topic.topic());
		String draft = this.tasks.draft(facts);
		JsonNode verdict = context.interrupt(Map.of("draft", draft));
		return this.tasks.publish(draft, verdict.path("approved").asBoolean());
	}

	record Topic(String topic) {
	}

	record Report(String text, boolean approved) {
	}

	static class ReportTasks {

		@Task
		public String fetch(String topic) {
			FETCHES.incrementAndGet();
			return "facts about " + topic;
		}

		@Task(name = "write-draft")
		public String draft(String facts) {
			DRAFTS.incrementAndGet();
			return "draft of " + facts;
		}

		@Task
		public Report publish(String draft, boolean approved) {
			PUBLISHES.incrementAndGet();
			return new Report(draft.toUpperCase(java.util.Locale.ROOT), approved);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReportConfiguration {

		@Bean
		ReportTasks reportTasks() {
			return new ReportTasks();
		}

		@Bean
		ReportWorkflow reportWorkflow(ReportTasks tasks) {
			return new ReportWorkflow(tasks);
		}

	}

}
