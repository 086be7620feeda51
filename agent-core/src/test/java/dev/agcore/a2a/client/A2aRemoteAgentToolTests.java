package dev.agcore.a2a.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.NestedEvents;
import dev.agcore.tool.ToolArgumentsException;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolException;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link A2aRemoteAgentTool} against a {@link MockWebServer} playing a remote A2A agent:
 * what it sends, how it reads streamed and plain answers, and how each failure reads.
 */
class A2aRemoteAgentToolTests {

	private final MockWebServer server = new MockWebServer();

	private final Events events = new Events();

	@BeforeEach
	void start() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void streamsTheTaskAndNestsItsProgressAndText() throws Exception {
		this.server.enqueue(card(true));
		this.server.enqueue(sse(task("t1", "c1", "submitted"), status("t1", "c1", "working", "Looking at maps", false),
				artifact("t1", "c1", "Day 1: Alfama"), status("t1", "c1", "completed", "Enjoy Lisbon", true)));
		A2aRemoteAgentTool tool = tool(Map.of("Authorization", "Bearer secret"), Duration.ofSeconds(10));

		assertThat(tool.spec().description()).contains("remote agent 'trips'").doesNotContain("Trip planner");
		String answer = tool.call("{\"task\": \"Plan Lisbon\"}", context("s1"), this.events);

		assertThat(answer).isEqualTo("Day 1: Alfama\n\nEnjoy Lisbon");
		RecordedRequest cardRequest = this.server.takeRequest();
		assertThat(cardRequest.getTarget()).isEqualTo("/.well-known/agent-card.json");
		assertThat(cardRequest.getHeaders().get("Authorization")).isEqualTo("Bearer secret");
		RecordedRequest request = this.server.takeRequest();
		assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer secret");
		assertThat(request.getHeaders().get("Accept")).contains("text/event-stream");
		JsonNode body = AgentJson.mapper().readTree(request.getBody().utf8());
		assertThat(body.path("method").asString()).isEqualTo("message/stream");
		assertThat(body.at("/params/message/parts/0/text").asString()).isEqualTo("Plan Lisbon");
		assertThat(body.at("/params/message/role").asString()).isEqualTo("user");
		assertThat(body.at("/params/message/contextId").asString()).isNotBlank();
		// nested: progress along the way, then the text that makes the answer
		assertThat(this.events.seen).containsExactly(
				new AgentEvent.ToolProgress("call_1", "trips", 1, null, "working: Looking at maps"),
				new AgentEvent.TextDelta("Day 1: Alfama"), new AgentEvent.TextDelta("\n\nEnjoy Lisbon"));
		assertThat(this.events.agents).containsOnly("trips");
		// once the card is known, it describes the tool
		assertThat(tool.spec().description()).contains("Trip planner", "Plans trips.", "Itinerary (Makes one)",
				"put everything it needs in the task");
	}

	@Test
	void sendsWhenTheRemoteDoesNotStreamAndContinuesTheSessionsContext() throws Exception {
		this.server.enqueue(card(false));
		this.server.enqueue(json(result(task("t1", "c-remote", "completed", "Porto it is", "Day 1: Ribeira"))));
		this.server.enqueue(json(result(message("c-remote", "Still Porto"))));
		this.server.enqueue(json(result(message("c-other", "Hello"))));
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThat(tool.call("{\"task\": \"Porto\"}", context("s1"), this.events))
			.isEqualTo("Day 1: Ribeira\n\nPorto it is");
		assertThat(tool.call("{\"task\": \"And then?\"}", context("s1"), NestedEvents.NONE)).isEqualTo("Still Porto");
		assertThat(tool.call("{\"task\": \"Hi\"}", context("s2"), NestedEvents.NONE)).isEqualTo("Hello");

		this.server.takeRequest();
		JsonNode first = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		JsonNode second = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		JsonNode other = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		assertThat(first.path("method").asString()).isEqualTo("message/send");
		assertThat(second.at("/params/message/contextId").asString()).isEqualTo("c-remote");
		assertThat(other.at("/params/message/contextId").asString())
			.isNotEqualTo(first.at("/params/message/contextId").asString())
			.isNotEqualTo("c-remote");
		// a plain answer is nested too, when the caller streams
		assertThat(this.events.seen).containsExactly(new AgentEvent.TextDelta("Day 1: Ribeira"),
				new AgentEvent.TextDelta("\n\nPorto it is"));
	}

	@Test
	void inputRequiredAsksTheModelAndTheNextCallContinuesTheTask() throws Exception {
		this.server.enqueue(card(false));
		this.server.enqueue(json(result(task("t7", "c1", "input-required", "Which month?", null))));
		this.server.enqueue(json(result(task("t7", "c1", "completed", "May is fine", null))));
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThat(tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.isEqualTo("remote agent 'trips' needs more input to finish the task: Which month?\n"
					+ "Call 'trips' again with the answer; it continues the same task.");
		assertThat(tool.call("{\"task\": \"May\"}", context("s1"), this.events)).isEqualTo("May is fine");

		this.server.takeRequest();
		JsonNode first = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		JsonNode second = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		assertThat(first.at("/params/message/taskId").isMissingNode()).isTrue();
		assertThat(second.at("/params/message/taskId").asString()).isEqualTo("t7");
	}

	@Test
	void failedAndRejectedTasksAreErrorsNamingTheRemote() {
		this.server.enqueue(card(true));
		this.server.enqueue(sse(task("t1", "c1", "submitted"), status("t1", "c1", "failed", "No trains", true)));
		this.server.enqueue(sse(status("t2", "c1", "rejected", "Not my job", true)));
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessage("remote agent 'trips' failed the task: No trains");
		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessage("remote agent 'trips' rejected the task: Not my job");
	}

	@Test
	void aJsonRpcErrorIsAnErrorNamingTheRemote() {
		this.server.enqueue(card(true));
		this.server.enqueue(json("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}"));
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessage("remote agent 'trips' at " + this.server.url("/") + " answered with error -32601: Method not found");
	}

	@Test
	void anUnauthorizedRemoteSaysWhichHeadersToCheck() {
		this.server.enqueue(new MockResponse.Builder().code(401).build());
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessage("the Agent Card of remote agent 'trips' at " + this.server.url("/.well-known/agent-card.json")
					+ " answered HTTP 401; check the headers of agent.a2a.remotes.trips");
	}

	@Test
	void aDeadRemoteIsAnErrorNamingItsUrlAndTheCardIsFetchedAgainLater() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		A2aRemote remote = new A2aRemote("trips", URI.create("http://127.0.0.1:" + port + "/a2a"), Map.of(),
				Duration.ofSeconds(10), null);
		A2aRemoteAgentTool tool = new A2aRemoteAgentTool(remote, WebClient.create());

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessageStartingWith("the Agent Card of remote agent 'trips' at http://127.0.0.1:" + port
					+ "/a2a/.well-known/agent-card.json could not be reached (");
		assertThat(tool.card()).isNull();
	}

	@Test
	void aRemoteThatDoesNotAnswerInTimeIsAnError() throws Exception {
		this.server.enqueue(card(false));
		this.server.enqueue(new MockResponse.Builder().body(result(task("t1", "c1", "completed", "late", null)))
			.headersDelay(3, TimeUnit.SECONDS)
			.build());
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofMillis(500));

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessage("remote agent 'trips' at " + this.server.url("/") + " did not answer within PT0.5S");
	}

	@Test
	void aStreamLostAfterTheTaskStartedIsResubscribedOnce() throws Exception {
		this.server.enqueue(card(true));
		this.server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
			.chunkedBody(events(task("t1", "c1", "submitted"), status("t1", "c1", "working", "Packing", false)), 64)
			.onResponseEnd(new SocketEffect.CloseSocket(true, true, true))
			.build());
		this.server.enqueue(sse(artifact("t1", "c1", "Day 1: Alfama"), status("t1", "c1", "completed", "Done", true)));
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThat(tool.call("{\"task\": \"Plan\"}", context("s1"), this.events)).isEqualTo("Day 1: Alfama\n\nDone");
		this.server.takeRequest();
		this.server.takeRequest();
		JsonNode resubscribe = AgentJson.mapper().readTree(this.server.takeRequest().getBody().utf8());
		assertThat(resubscribe.path("method").asString()).isEqualTo("tasks/resubscribe");
		assertThat(resubscribe.at("/params/id").asString()).isEqualTo("t1");
	}

	@Test
	void aStreamWhoseConnectionBreaksIsResubscribedOnce() throws Exception {
		try (ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
			String base = "http://127.0.0.1:" + socket.getLocalPort() + "/";
			List<String> bodies = new CopyOnWriteArrayList<>();
			Thread remote = new Thread(() -> {
				try {
					// the card; then a stream cut off in the middle of its chunked body; then the resubscription
					answer(socket, bodies, "application/json", cardJson(base, true), false);
					answer(socket, bodies, "text/event-stream",
							events(task("t1", "c1", "submitted"), status("t1", "c1", "working", "Packing", false)), true);
					answer(socket, bodies, "text/event-stream", events(status("t1", "c1", "completed", "Done", true)),
							false);
				}
				catch (IOException ex) {
					// the test's assertions say what went wrong
				}
			});
			remote.setDaemon(true);
			remote.start();
			A2aRemote remoteSettings = new A2aRemote("trips", URI.create(base), Map.of(), Duration.ofSeconds(10), null);
			A2aRemoteAgentTool tool = new A2aRemoteAgentTool(remoteSettings, WebClient.create());

			assertThat(tool.call("{\"task\": \"Plan\"}", context("s1"), this.events)).isEqualTo("Done");
			remote.join(10_000);
			assertThat(bodies).hasSize(3);
			assertThat(AgentJson.mapper().readTree(bodies.get(1)).path("method").asString()).isEqualTo("message/stream");
			assertThat(AgentJson.mapper().readTree(bodies.get(2)).path("method").asString())
				.isEqualTo("tasks/resubscribe");
		}
	}

	/** Answer one request on a new connection: whole, or cut off after the first chunk. */
	private static void answer(ServerSocket server, List<String> bodies, String type, String body, boolean cut)
			throws IOException {
		try (Socket socket = server.accept()) {
			BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			int length = 0;
			for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
				if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
					length = Integer.parseInt(line.substring("content-length:".length()).strip());
				}
			}
			char[] request = new char[length];
			int read = 0;
			while (read < length) {
				read += in.read(request, read, length - read);
			}
			bodies.add(new String(request));
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			OutputStream out = socket.getOutputStream();
			out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n"
					+ "Connection: close\r\n\r\n" + Integer.toHexString(bytes.length) + "\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.write((cut ? "\r\n" : "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
		}
	}

	@Test
	void aCardNamingAnotherOriginIsRefused() {
		this.server.enqueue(json(cardJson("http://elsewhere.example/a2a", true)));
		A2aRemoteAgentTool tool = tool(Map.of("Authorization", "Bearer secret"), Duration.ofSeconds(10));

		assertThatExceptionOfType(ToolException.class)
			.isThrownBy(() -> tool.call("{\"task\": \"Plan\"}", context("s1"), this.events))
			.withMessageContaining("names the endpoint http://elsewhere.example/a2a, on another origin")
			.withMessageContaining("the configured headers are sent only to that origin");
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void aMissingTaskIsAnArgumentError() {
		A2aRemoteAgentTool tool = tool(Map.of(), Duration.ofSeconds(10));

		assertThatExceptionOfType(ToolArgumentsException.class)
			.isThrownBy(() -> tool.call("{\"city\": \"Lisbon\"}", context("s1"), this.events))
			.withMessage("'task' is required and must be a non-blank string");
		assertThat(this.server.getRequestCount()).isZero();
	}

	@Test
	void aConfiguredDescriptionWinsOverTheCard() throws Exception {
		this.server.enqueue(card(false));
		this.server.enqueue(json(result(message("c1", "ok"))));
		A2aRemote remote = new A2aRemote("trips", this.server.url("/").uri(), Map.of(), Duration.ofSeconds(10),
				"Books trains.");
		A2aRemoteAgentTool tool = new A2aRemoteAgentTool(remote, WebClient.create());

		tool.call("{\"task\": \"Plan\"}", context("s1"), this.events);

		assertThat(tool.spec().description()).startsWith("Books trains.").doesNotContain("Trip planner");
	}

	private A2aRemoteAgentTool tool(Map<String, String> headers, Duration timeout) {
		A2aRemote remote = new A2aRemote("trips", this.server.url("/").uri(), headers, timeout, null);
		return new A2aRemoteAgentTool(remote, WebClient.create());
	}

	private static ToolContext context(String sessionId) {
		return new ToolContext("call_1", sessionId, "lead", Map.of());
	}

	private MockResponse card(boolean streaming) {
		return json(cardJson(this.server.url("/").toString(), streaming));
	}

	private static String cardJson(String url, boolean streaming) {
		return """
				{"name": "Trip planner", "description": "Plans trips.", "url": "%s", "version": "1.0.0",
				 "protocolVersion": "0.3.0", "capabilities": {"streaming": %s},
				 "defaultInputModes": ["text"], "defaultOutputModes": ["text"],
				 "skills": [{"id": "itinerary", "name": "Itinerary", "description": "Makes one", "tags": ["travel"]}]}
				""".formatted(url, streaming);
	}

	private static MockResponse json(String body) {
		return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body).build();
	}

	private static MockResponse sse(String... results) {
		return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(events(results)).build();
	}

	private static String events(String... results) {
		StringBuilder body = new StringBuilder();
		for (String result : results) {
			body.append("data: ").append(result(result)).append("\n\n");
		}
		return body.toString();
	}

	private static String result(String result) {
		return "{\"jsonrpc\": \"2.0\", \"id\": \"1\", \"result\": " + result + "}";
	}

	private static String task(String id, String contextId, String state) {
		return "{\"kind\": \"task\", \"id\": \"" + id + "\", \"contextId\": \"" + contextId
				+ "\", \"status\": {\"state\": \"" + state + "\"}}";
	}

	private static String task(String id, String contextId, String state, String text, String artifact) {
		String artifacts = (artifact != null) ? ", \"artifacts\": [{\"artifactId\": \"a1\", \"parts\": [{\"kind\": \"text\", "
				+ "\"text\": \"" + artifact + "\"}]}]" : "";
		return "{\"kind\": \"task\", \"id\": \"" + id + "\", \"contextId\": \"" + contextId
				+ "\", \"status\": {\"state\": \"" + state + "\", \"message\": " + agentMessage(contextId, text) + "}"
				+ artifacts + "}";
	}

	private static String message(String contextId, String text) {
		return agentMessage(contextId, text);
	}

	private static String agentMessage(String contextId, String text) {
		return "{\"kind\": \"message\", \"role\": \"agent\", \"messageId\": \"m-" + text.hashCode()
				+ "\", \"contextId\": \"" + contextId + "\", \"parts\": [{\"kind\": \"text\", \"text\": \"" + text
				+ "\"}]}";
	}

	private static String status(String taskId, String contextId, String state, String text, boolean last) {
		return "{\"kind\": \"status-update\", \"taskId\": \"" + taskId + "\", \"contextId\": \"" + contextId
				+ "\", \"final\": " + last + ", \"status\": {\"state\": \"" + state + "\", \"message\": "
				+ agentMessage(contextId, text) + "}}";
	}

	private static String artifact(String taskId, String contextId, String text) {
		return "{\"kind\": \"artifact-update\", \"taskId\": \"" + taskId + "\", \"contextId\": \"" + contextId
				+ "\", \"artifact\": {\"artifactId\": \"a1\", \"parts\": [{\"kind\": \"text\", \"text\": \"" + text
				+ "\"}]}}";
	}

	/** A streamed calling turn, recording what the tool nests in it. */
	static final class Events implements NestedEvents {

		final List<AgentEvent> seen = new CopyOnWriteArrayList<>();

		final List<String> agents = new CopyOnWriteArrayList<>();

		@Override
		public boolean streaming() {
			return true;
		}

		@Override
		public void event(String agent, AgentEvent event) {
			this.agents.add(agent);
			this.seen.add(event);
		}

	}

}
