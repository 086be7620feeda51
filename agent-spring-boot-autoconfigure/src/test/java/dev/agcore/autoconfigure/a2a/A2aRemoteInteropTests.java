package dev.agcore.autoconfigure.a2a;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.NpmCommands;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The A2A client against a remote agent hosted by the official A2A SDK's server
 * ({@code @a2a-js/sdk}, {@code src/test/resources/a2a-remote/server.mjs}): an agcore
 * agent whose scripted model calls the remote as a tool gets its answer, its streamed
 * progress nested in the agent's own stream, over {@code message/stream} and
 * {@code message/send}; the remote sees the configured header and one context per
 * session; a failed task and a dead remote are clear errors.
 */
class A2aRemoteInteropTests {

	private static Process remote;

	private static int port;

	private static ConfigurableApplicationContext context;

	private static int deadPort;

	@BeforeAll
	static void start() throws Exception {
		Path packages = NpmCommands.directory();
		URL script = A2aRemoteInteropTests.class.getResource("/a2a-remote/server.mjs");
		assertThat(script).isNotNull();
		Path stderr = Files.createTempFile("a2a-remote", ".err");
		remote = new ProcessBuilder("node", Path.of(script.toURI()).toString(), packages.toString())
			.redirectError(stderr.toFile())
			.start();
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(remote.getInputStream(), StandardCharsets.UTF_8));
		String line = stdout.readLine();
		assertThat(line).as(() -> "the remote did not start: " + read(stderr)).isNotNull();
		port = AgentJson.mapper().readTree(line).path("port").asInt();
		try (ServerSocket socket = new ServerSocket(0)) {
			deadPort = socket.getLocalPort();
		}
		context = new SpringApplicationBuilder(RemoteCallingApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("agent.a2a.remotes.trips.url=http://127.0.0.1:" + port,
					"agent.a2a.remotes.trips.headers.Authorization=Bearer ${A2A_INTEROP_TOKEN:interop-token}",
					"agent.a2a.remotes.trips.timeout=30s",
					"agent.a2a.remotes.plain.url=http://127.0.0.1:" + port + "/plain/.well-known/agent-card.json",
					"agent.a2a.remotes.dead.url=http://127.0.0.1:" + deadPort, "agent.agents.lead.model=scripted",
					"agent.agents.lead.tools=trips,plain,dead", "agent.untrusted-content.enabled=false")
			.run();
	}

	@AfterAll
	static void stop() throws InterruptedException {
		if (context != null) {
			context.close();
		}
		if (remote != null) {
			remote.descendants().forEach(ProcessHandle::destroyForcibly);
			remote.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void anAgentCallsTheRemoteAndItsStreamedProgressIsNestedInTheAgentsStream() throws Exception {
		Agent lead = context.getBean("lead", Agent.class);

		List<AgentEvent> events = lead.stream(new AgentRequest("s1", "trips: Lisbon", Map.of()))
			.collectList()
			.block(Duration.ofSeconds(60));

		assertThat(events).isNotNull();
		List<AgentEvent.SubAgentEvent> nested = events.stream()
			.filter(AgentEvent.SubAgentEvent.class::isInstance)
			.map(AgentEvent.SubAgentEvent.class::cast)
			.toList();
		assertThat(nested).allSatisfy((event) -> assertThat(event.agent()).isEqualTo("trips"));
		assertThat(nested).extracting(AgentEvent.SubAgentEvent::event)
			.containsExactly(new AgentEvent.ToolProgress(nested.get(0).toolCallId(), "trips", 1, null,
					"working: Planning a trip to Lisbon"), new AgentEvent.TextDelta("Day 1: the old town of Lisbon"),
					new AgentEvent.TextDelta("\n\nItinerary ready (turn 1 of this conversation)"));
		AgentEvent.ToolCallCompleted result = events.stream()
			.filter(AgentEvent.ToolCallCompleted.class::isInstance)
			.map(AgentEvent.ToolCallCompleted.class::cast)
			.findFirst()
			.orElseThrow();
		assertThat(result.error()).isFalse();
		assertThat(result.result())
			.isEqualTo("Day 1: the old town of Lisbon\n\nItinerary ready (turn 1 of this conversation)");
		// nested between the parent's tool_call and tool_result of that call
		int started = indexOf(events, AgentEvent.ToolCallStarted.class);
		assertThat(events.indexOf(nested.get(0))).isGreaterThan(started);
		assertThat(events.indexOf(nested.get(nested.size() - 1))).isLessThan(events.indexOf(result));
		assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(AgentEvent.Completed.class,
				(completed) -> assertThat(completed.result().output()).startsWith("Remote said: Day 1"));

		// the next call of the session continues the remote's conversation
		AgentResult second = lead.call("s1", "trips: Porto");
		assertThat(second.output()).isEqualTo("Remote said: Day 1: the old town of Porto\n\n"
				+ "Itinerary ready (turn 2 of this conversation)");

		JsonNode seen = seen();
		// the configured header on every request to trips (at /), none to plain (at /plain)
		assertThat(seen.path("requests").values()).filteredOn((request) -> request.path("path").asString().equals("/"))
			.isNotEmpty()
			.allSatisfy((request) -> assertThat(request.path("authorization").asString())
				.isEqualTo("Bearer interop-token"));
		assertThat(seen.path("requests").values())
			.filteredOn((request) -> request.path("path").asString().startsWith("/plain"))
			.allSatisfy((request) -> assertThat(request.path("authorization").isNull()).isTrue());
		assertThat(contextOf(seen, "Lisbon")).isNotBlank().isEqualTo(contextOf(seen, "Porto"));
		// the card, fetched by now, describes the tool
		assertThat(lead.tools()).filteredOn((spec) -> spec.name().equals("trips"))
			.singleElement()
			.extracting(ToolSpec::description)
			.asString()
			.contains("Trip planner", "Plans trips", "Itinerary (Makes a day-by-day itinerary for a city)");
	}

	@Test
	void aRemoteThatDoesNotStreamIsSentTheMessage() {
		Agent lead = context.getBean("lead", Agent.class);

		AgentResult result = lead.call("s2", "plain: Faro");

		assertThat(result.output()).isEqualTo("Remote said: Day 1: the old town of Faro\n\n"
				+ "Itinerary ready (turn 1 of this conversation)");
	}

	@Test
	void aRemoteAskingForInputIsAnAnswerAndAFailedTaskAnError() {
		Agent lead = context.getBean("lead", Agent.class);

		assertThat(lead.call("s3", "trips: ask me").output()).isEqualTo("Remote said: remote agent 'trips' needs more "
				+ "input to finish the task: Which month do you travel?\nCall 'trips' again with the answer; it "
				+ "continues the same task.");
		assertThat(lead.call("s4", "trips: fail").output())
			.isEqualTo("Remote said: Error: tool 'trips' failed: ToolException: remote agent 'trips' failed the task: No trains run "
					+ "there");
	}

	@Test
	void aDeadRemoteIsAClearError() {
		Agent lead = context.getBean("lead", Agent.class);

		assertThat(lead.call("s5", "dead: anything").output()).startsWith("Remote said: Error: tool 'dead' failed: "
				+ "ToolException: the Agent Card of remote agent 'dead' at http://127.0.0.1:" + deadPort
				+ "/.well-known/agent-card.json could not be reached (");
	}

	private static String contextOf(JsonNode seen, String text) {
		return seen.path("tasks")
			.values()
			.stream()
			.filter((task) -> task.path("text").asString().equals(text))
			.map((task) -> task.path("contextId").asString())
			.findFirst()
			.orElseThrow();
	}

	private static int indexOf(List<AgentEvent> events, Class<?> type) {
		for (int i = 0; i < events.size(); i++) {
			if (type.isInstance(events.get(i))) {
				return i;
			}
		}
		return -1;
	}

	private static JsonNode seen() throws IOException, InterruptedException {
		// Java 17: HttpClient is not AutoCloseable
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/seen")).build(),
					HttpResponse.BodyHandlers.ofString());
		return AgentJson.mapper().readTree(response.body());
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	/**
	 * An application whose scripted model calls the remote named before the colon of the
	 * user's message with the rest as the task, and answers with what the remote said.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
			ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class,
			A2aClientAutoConfiguration.class })
	static class RemoteCallingApplication {

		@Bean
		ChatModel scripted() {
			return ScriptedChatModel.answering((request) -> {
				List<Message> messages = request.messages();
				Message last = messages.get(messages.size() - 1);
				if (last instanceof ToolResultMessage result) {
					return ScriptedChatModel.text("Remote said: " + result.text());
				}
				String text = ((UserMessage) last).text();
				String remote = text.substring(0, text.indexOf(':'));
				String task = text.substring(text.indexOf(':') + 1).strip();
				return ScriptedChatModel.toolCalls(new ToolCall("call-" + remote + "-" + messages.size(), remote,
						AgentJson.mapper().createObjectNode().put("task", task).toString()));
			}).withoutRecording();
		}

	}

}
