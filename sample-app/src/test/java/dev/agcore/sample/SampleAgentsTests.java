package dev.agcore.sample;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import dev.agcore.embedding.EmbeddingModel;
import dev.agcore.embedding.onnx.LocalOnnxEmbeddingModel;
import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.tool.ToolCallback;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each agent of the sample, over HTTP, on the scripted demo model and the default H2 file
 * store (in a fresh folder under {@code target/}, see {@link SampleTestEnvironment}): the
 * assistant's tools and approval, the researcher's retrieval with in-process embeddings,
 * the planner's plan and the librarian's MCP server from npm.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class SampleAgentsTests {

	@Autowired
	private WebTestClient client;

	@Autowired
	private DataSource dataSource;

	@Autowired
	private ConversationStore conversations;

	@Autowired
	private McpClientRegistry mcp;

	@Autowired
	private EmbeddingModel embeddingModel;

	@Test
	void conversationsAreKeptInTheH2FileOfTheDataDirectory() throws SQLException {
		String url;
		try (Connection connection = this.dataSource.getConnection()) {
			url = connection.getMetaData().getURL();
		}
		assertThat(url).startsWith("jdbc:h2:file:" + System.getProperty(SampleTestEnvironment.DATA_DIR) + "/agcore");
		assertThat(this.conversations).isInstanceOf(JdbcConversationStore.class);
		String session = session("stored");
		SampleHttp.post(this.client, "/agents/assistant/invoke", Map.of("sessionId", session, "message", "Where is order A-1003?"));
		Integer rows = new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT COUNT(*) FROM agent_message WHERE session_id = ?", Integer.class, session);
		assertThat(rows).isGreaterThanOrEqualTo(3);
	}

	@Test
	void assistantCallsATool() {
		JsonNode result = SampleHttp.post(this.client, "/agents/assistant/invoke",
				Map.of("sessionId", session("weather"), "message", "What's the weather in Berlin?"));
		assertThat(result.get("status").asString()).isEqualTo("completed");
		assertThat(result.at("/toolCalls/0/name").asString()).isEqualTo("get_weather");
		assertThat(result.get("output").asString())
			.isEqualTo("Here is what I found: Berlin: 16 °C, overcast, wind 15 km/h");
	}

	@Test
	void assistantAnswersOpenAiAndA2aClientsAsTheSampleDocsShow() {
		JsonNode completion = SampleHttp.post(this.client, "/v1/chat/completions", Map.of("model", "assistant", "messages",
				List.of(Map.of("role", "user", "content", "What is the weather in Paris?"))));
		assertThat(completion.at("/choices/0/message/content").asString()).contains("Paris");
		JsonNode card = SampleHttp.get(this.client, "/a2a/assistant/.well-known/agent-card.json");
		assertThat(card.get("name").asString()).isEqualTo("assistant");
		assertThat(card.get("url").asString()).endsWith("/a2a/assistant");
		JsonNode sent = SampleHttp.post(this.client, "/a2a/assistant", Map.of("jsonrpc", "2.0", "id", 1, "method", "message/send", "params",
				Map.of("message", Map.of("kind", "message", "role", "user", "messageId", "m-1", "parts",
						List.of(Map.of("kind", "text", "text", "What is the weather in Paris?"))))));
		assertThat(sent.at("/result/status/state").asString()).isEqualTo("completed");
		assertThat(sent.at("/result/artifacts/0/parts/0/text").asString()).contains("Paris");
	}

	@Test
	void assistantPausesBeforeCancellingAnOrderAndResumesWhenApproved() {
		String session = session("cancel");
		JsonNode paused = SampleHttp.post(this.client, "/agents/assistant/invoke", Map.of("sessionId", session, "message", "Cancel order A-1002"));
		assertThat(paused.get("status").asString()).isEqualTo("interrupted");
		JsonNode pending = paused.at("/pendingToolCalls/0");
		assertThat(pending.get("name").asString()).isEqualTo("cancel_order");
		assertThat(pending.get("arguments").toString()).contains("A-1002");
		JsonNode resumed = SampleHttp.post(this.client, "/agents/assistant/sessions/" + session + "/resume",
				Map.of("decisions", Map.of(pending.get("id").asString(), Map.of("type", "approve"))));
		assertThat(resumed.get("status").asString()).isEqualTo("completed");
		assertThat(resumed.get("output").asString()).isEqualTo("Here is what I found: Order A-1002 is cancelled.");
	}

	@Test
	void researcherAnswersFromTheBundledPageItRetrieved() {
		JsonNode result = SampleHttp.post(this.client, "/agents/researcher/invoke", Map.of("sessionId", session("research"), "message",
				"How do I remove limescale from the Duo?"));
		assertThat(this.embeddingModel).as("in-process embeddings, no key").isInstanceOf(LocalOnnxEmbeddingModel.class);
		assertThat(result.get("status").asString()).isEqualTo("completed");
		JsonNode call = result.at("/toolCalls/0");
		assertThat(call.get("name").asString()).isEqualTo("retrieve");
		assertThat(result.get("output").asString()).startsWith("(demo) According to the page \"Duo espresso machine\": ")
			.contains("one sachet of descaling solution");
	}

	@Test
	void plannerStreamsItsPlanAndItsSteps() {
		List<ServerSentEvent<String>> events = this.client.post()
			.uri("/agents/planner/stream")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("sessionId", session("plan"), "message", "Convert 5 kg to lb and then where is order A-1002?"))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
			})
			.getResponseBody()
			.collectList()
			.block(Duration.ofSeconds(30));
		assertThat(events).extracting(ServerSentEvent::event)
			.containsSubsequence("plan_created", "step_started", "tool_result", "step_completed", "step_started",
					"tool_result", "step_completed", "completed");
		ServerSentEvent<String> plan = events.stream()
			.filter((event) -> "plan_created".equals(event.event()))
			.findFirst()
			.orElseThrow();
		assertThat(plan.data()).contains("Convert 5 kg to lb").contains("where is order A-1002?");
		assertThat(events).filteredOn((event) -> "tool_result".equals(event.event()))
			.extracting(ServerSentEvent::data)
			.satisfiesExactly((first) -> assertThat(first).contains("5 kg = 11.02 lb"),
					(second) -> assertThat(second).contains("Order A-1002 is processing"));
	}

	@Test
	void librarianReadsAFileThroughTheMcpFilesystemServer() {
		SampleTestEnvironment.requireFilesystemServer();
		awaitMcpTool("shop-files__read_text_file");
		JsonNode read = SampleHttp.post(this.client, "/agents/librarian/invoke",
				Map.of("sessionId", session("files"), "message", "What does opening-hours.md say?"));
		assertThat(read.get("status").asString()).isEqualTo("completed");
		assertThat(read.at("/toolCalls/0/name").asString()).isEqualTo("shop-files__read_text_file");
		assertThat(read.get("output").asString())
			.startsWith("(demo) The shop-files MCP server's read_text_file tool returned:")
			.contains("Tuesday to Friday: 10:00 to 19:00");

		JsonNode list = SampleHttp.post(this.client, "/agents/librarian/invoke",
				Map.of("sessionId", session("files"), "message", "Which files do we have?"));
		assertThat(list.at("/toolCalls/0/name").asString()).isEqualTo("shop-files__list_directory");
		assertThat(list.get("output").asString()).contains("[FILE] price-list.md").contains("[FILE] suppliers.md");
	}

	@Test
	void librarianIsOfferedOnlyTheReadOnlyToolsOfTheFilesystemServer() {
		SampleTestEnvironment.requireFilesystemServer();
		awaitMcpTool("shop-files__read_text_file");
		assertThat(this.mcp.tools()).extracting((tool) -> tool.spec().name()).contains("shop-files__write_file");
		JsonNode tools = SampleHttp.get(this.client, "/agents/librarian/tools");
		assertThat(tools.valueStream().map((tool) -> tool.get("name").asString())).contains("shop-files__read_text_file",
				"shop-files__list_directory")
			.noneMatch((name) -> name.contains("write") || name.contains("edit") || name.contains("move")
					|| name.contains("create"));
	}

	private void awaitMcpTool(String name) {
		long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (this.mcp.tools().stream().map(ToolCallback::spec).noneMatch((spec) -> spec.name().equals(name))) {
			assertThat(System.nanoTime()).as("MCP tool %s to be offered: %s", name, this.mcp.statuses()).isLessThan(end);
			LockSupport.parkNanos(50_000_000);
		}
	}

	private static String session(String name) {
		return name + "-" + UUID.randomUUID();
	}


}
