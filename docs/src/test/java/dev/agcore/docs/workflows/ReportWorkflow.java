package dev.agcore.docs.workflows;

import java.util.Map;

import dev.agcore.workflow.WorkflowContext;
import dev.agcore.workflow.annotation.Entrypoint;
import dev.agcore.workflow.annotation.Task;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

// tag::annotations[]
@Component
class ReportTasks {

	@Task
	public String fetch(String topic) {                 // call id fetch#0, fetch#1, ...
		return "Facts about " + topic;
	}

	@Task(name = "write-draft")
	public String draft(String facts) {
		return "Draft from " + facts;
	}

	@Task
	public Report publish(String draft, boolean approved) {
		return new Report(draft, approved);
	}

}

@Component
class ReportWorkflow {

	private final ReportTasks tasks;

	ReportWorkflow(ReportTasks tasks) {
		this.tasks = tasks;
	}

	@Entrypoint(name = "report")
	public Report report(Topic topic, WorkflowContext context) {
		String facts = this.tasks.fetch(topic.topic());
		String draft = this.tasks.draft(facts);
		JsonNode verdict = context.interrupt(Map.of("draft", draft));   // waits for a human
		return this.tasks.publish(draft, verdict.path("approved").asBoolean());
	}

	record Topic(String topic) {
	}

}
// end::annotations[]
