package dev.agcore.docs.workflows;

import java.util.List;
import java.util.Map;

import dev.agcore.workflow.Workflow;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The builder API of docs/workflows.md. */
@Configuration(proxyBeanMethods = false)
class ReviewWorkflow {

	// tag::builder[]
	@Bean
	Workflow review(Writer writer) {
		return Workflow.of("review", (ctx, input) -> {
			String draft = ctx.task("draft", String.class, () -> writer.draft(input.path("topic").asString()));
			List<String> notes = ctx.task("notes", new TypeReference<List<String>>() { }, () -> writer.notes(draft));
			ctx.emit("progress", Map.of("percent", 50));     // a custom event on the stream
			JsonNode verdict = ctx.interrupt(Map.of("draft", draft, "notes", notes));
			return verdict.path("approved").asBoolean() ? draft : null;
		});
	}
	// end::builder[]

	@Bean
	Writer writer() {
		return new Writer();
	}

	/** Writes drafts and counts how often, so that tests see checkpointed tasks not run again. */
	static class Writer {

		int drafts;

		String draft(String topic) {
			this.drafts++;
			return "A draft about " + topic;
		}

		List<String> notes(String draft) {
			return List.of("Too short", "Cite sources");
		}

	}

}
