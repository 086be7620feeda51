package dev.agcore.docs.runs;

import java.time.Duration;

import dev.agcore.autoconfigure.run.Runs;
import dev.agcore.json.AgentJson;
import dev.agcore.run.Run;
import dev.agcore.run.RunEvent;
import dev.agcore.run.RunRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.stereotype.Service;

// tag::reports[]
@Service
class Reports {

	private final Runs runs;

	Reports(Runs runs) {
		this.runs = runs;
	}

	Mono<Run> summarise(String sessionId) {
		ObjectNode input = AgentJson.mapper().createObjectNode().put("message", "Summarise the report");
		return this.runs.submit(RunRequest.of("agent", "assistant", sessionId, input)
			.withDeadline(Duration.ofMinutes(5))
			.withIdempotencyKey("report-42"));
	}

	Flux<RunEvent> follow(String runId, long lastSeen) {
		return this.runs.events(runId, lastSeen);
	}

}
// end::reports[]
