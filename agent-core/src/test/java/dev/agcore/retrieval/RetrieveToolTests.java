package dev.agcore.retrieval;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.json.AgentJson;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import dev.agcore.tool.ToolPermission;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RetrieveTool}.
 */
class RetrieveToolTests {

	private static final ToolContext CONTEXT = new ToolContext("call-1", "s1", "agent", Map.of());

	private final KeywordRetriever retriever = KeywordRetriever.of(List.of(
			new Document("retry", "Retry policy", "How clients retry.", "The client retries three times.", Map.of()),
			new Document("timeouts", "Timeouts", "How long clients wait.", "A client waits ten seconds.", Map.of()),
			new Document("billing", "Billing", "Invoices.", "Invoices are monthly.", Map.of())));

	@Test
	void theSpecDescribesQueryAndTopK() {
		RetrieveTool tool = new RetrieveTool(this.retriever);

		assertThat(tool.spec().name()).isEqualTo("retrieve");
		JsonNode schema = tool.spec().inputSchema();
		assertThat(schema.get("required").get(0).asString()).isEqualTo("query");
		assertThat(schema.get("properties").get("top_k").get("maximum").asInt()).isEqualTo(20);
		assertThat(tool.metadata().permission()).isEqualTo(ToolPermission.READ_ONLY);
		assertThat(tool.metadata().category()).isEqualTo("knowledge");
	}

	@Test
	void theBestPagesComeBackAsJson() {
		JsonNode answer = call(new RetrieveTool(this.retriever), "{\"query\": \"how do clients retry\"}");

		assertThat(answer.get("query").asString()).isEqualTo("how do clients retry");
		JsonNode first = answer.get("results").get(0);
		assertThat(first.get("id").asString()).isEqualTo("retry");
		assertThat(first.get("title").asString()).isEqualTo("Retry policy");
		assertThat(first.get("summary").asString()).isEqualTo("How clients retry.");
		assertThat(first.get("content").asString()).isEqualTo("The client retries three times.");
		assertThat(first.get("score").asDouble()).isBetween(0.1, 1.0);
		assertThat(first.has("truncated")).isFalse();
		assertThat(answer.has("message")).isFalse();
	}

	@Test
	void topKAndTheDefaultsBoundTheResults() {
		RetrieveTool tool = new RetrieveTool(this.retriever, new RetrieveTool.Options(1, 2, 0, 100, Map.of()));

		assertThat(call(tool, "{\"query\": \"clients\"}").get("results")).hasSize(1);
		assertThat(call(tool, "{\"query\": \"clients\", \"top_k\": 2}").get("results")).hasSize(2);
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> tool.call("{\"query\": \"clients\", \"top_k\": 3}", CONTEXT))
			.withMessage("'top_k' must be between 1 and 2");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> tool.call("{\"query\": \"clients\", \"top_k\": 1.5}", CONTEXT))
			.withMessage("'top_k' must be a whole number");
	}

	@Test
	void longContentIsCut() {
		KeywordRetriever big = KeywordRetriever.of(List.of(new Document("big", "Kafka", "", "kafka ".repeat(1000),
				Map.of())));
		RetrieveTool tool = new RetrieveTool(big, new RetrieveTool.Options(5, 20, 0, 50, Map.of()));

		JsonNode result = call(tool, "{\"query\": \"kafka\"}").get("results").get(0);

		assertThat(result.get("content").asString()).hasSize(50).endsWith("…");
		assertThat(result.get("truncated").asBoolean()).isTrue();
	}

	@Test
	void theMinimumScoreAndFilterOfTheOptionsApply() {
		AtomicReference<SearchRequest> seen = new AtomicReference<>();
		Retriever spy = (request) -> {
			seen.set(request);
			return Mono.just(List.of());
		};
		RetrieveTool tool = new RetrieveTool(spy, new RetrieveTool.Options(3, 20, 0.25, 100, Map.of("k", "v")));

		JsonNode answer = call(tool, "{\"query\": \" anything \"}");

		assertThat(seen.get()).isEqualTo(new SearchRequest("anything", 3, 0.25, Map.of("k", "v")));
		assertThat(answer.get("results")).isEmpty();
		assertThat(answer.get("message").asString()).startsWith("No page matches");
	}

	@Test
	void aFailingSearchSaysSo() {
		RetrieveTool tool = new RetrieveTool((request) -> Mono.error(new IllegalStateException("index closed")));

		assertThatExceptionOfType(ToolException.class).isThrownBy(() -> tool.call("{\"query\": \"x y\"}", CONTEXT))
			.withMessage("Searching the knowledge base failed: index closed");
	}

	@Test
	void badArgumentsAreReportedToTheModel() {
		RetrieveTool tool = new RetrieveTool(this.retriever);

		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> tool.call("not json", CONTEXT))
			.withMessage("The arguments are not a JSON object");
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> tool.call("[]", CONTEXT))
			.withMessage("The arguments are not a JSON object");
		assertThatExceptionOfType(ToolArgumentsException.class).isThrownBy(() -> tool.call("{\"query\": \" \"}", CONTEXT))
			.withMessageContaining("'query' is required");
		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> tool.call("{\"query\": \"" + "x".repeat(1001) + "\"}", CONTEXT))
			.withMessage("'query' is longer than 1000 characters");
	}

	private static JsonNode call(RetrieveTool tool, String arguments) {
		return AgentJson.mapper().readTree(tool.call(arguments, CONTEXT));
	}

}
