package dev.agcore.autoconfigure.web.agui;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.mcp.server.NpmCommands;
import dev.agcore.autoconfigure.memory.AgentSessionsAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.PendingTurn;
import dev.agcore.message.Message;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AG-UI route of a running WebFlux application, driven by the official
 * {@code @ag-ui/client} {@code HttpAgent} ({@code src/test/resources/ag-ui-client/client.mjs}):
 * a run whose agent calls a tool and answers reaches the client as text and tool events in
 * order, which the client (verifying the sequence as it does) assembles into messages; a
 * second run on the same thread continues the stored conversation; an unknown agent is an
 * HTTP error.
 */
class AgUiClientTests {

	@Test
	void officialClientRunsAnAgentTwiceOnOneThread() throws URISyntaxException {
		Path packages = NpmCommands.directory();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ClientTestApplication.class)
			.web(WebApplicationType.REACTIVE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "agent.web.ag-ui.enabled=true", "agent.web.base-path=/agents",
					"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=get_weather",
					"agent.untrusted-content.enabled=false")
			.run()) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port")
					+ "/agents";
			URL script = AgUiClientTests.class.getResource("/ag-ui-client/client.mjs");
			assertThat(script).isNotNull();
			NpmCommands.Result result = NpmCommands.run(
					List.of("node", Path.of(script.toURI()).toString(), base + "/assistant/ag-ui",
							base + "/no-such-agent/ag-ui", packages.toString()),
					Path.of(script.toURI()).getParent(), Duration.ofSeconds(60));
			assertThat(result.exitCode()).as(result.stderr()).isZero();
			JsonNode results = AgentJson.mapper().readTree(result.stdout());

			JsonNode first = results.path("first");
			// the text arrives in several pieces
			assertThat(collapsed(first.path("events"))).containsExactly("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
						"TOOL_CALL_RESULT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
						"RUN_FINISHED");
			JsonNode newMessages = first.path("newMessages");
			assertThat(newMessages.values()).extracting((message) -> message.path("role").asString())
				.containsExactly("assistant", "tool", "assistant");
			JsonNode call = newMessages.get(0).path("toolCalls").get(0);
			assertThat(call.path("name").asString()).isEqualTo("get_weather");
			assertThat(AgentJson.mapper().readTree(call.path("arguments").asString()).path("city").asString())
				.isEqualTo("Lima");
			assertThat(newMessages.get(1).path("toolCallId").asString()).isEqualTo(call.path("id").asString());
			assertThat(newMessages.get(1).path("content").asString()).isEqualTo("Sunny, 21 C in Lima");
			assertThat(newMessages.get(2).path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Lima");

			JsonNode second = results.path("second");
			assertThat(second.path("events").get(0).asString()).isEqualTo("RUN_STARTED");
			assertThat(second.path("events").get(second.path("events").size() - 1).asString())
				.isEqualTo("RUN_FINISHED");
			JsonNode messages = results.path("messages");
			assertThat(messages.values()).extracting((message) -> message.path("role").asString())
				.containsExactly("user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant");
			assertThat(messages.get(7).path("content").asString()).isEqualTo("The weather: Sunny, 21 C in Quito");

			// the second turn continued the stored conversation: its message alone, after the first turn
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			ChatRequest secondTurn = model.requests().get(2);
			List<String> texts = secondTurn.messages()
				.stream()
				.filter(UserMessage.class::isInstance)
				.map(Message::text)
				.toList();
			assertThat(texts).containsExactly("What is the weather in Lima?", "And in Quito?");

			JsonNode error = results.path("error");
			assertThat(error.path("thrown").asBoolean()).as(error.toString()).isTrue();
			assertThat(error.path("status").asInt()).isEqualTo(404);
			assertThat(error.path("payload").path("error").asString()).isEqualTo("not_found");
		}
	}

	/**
	 * Every kind of event the route sends, replayed through the official client
	 * ({@code replay.mjs}): it parses, validates and verifies each stream without a
	 * complaint, and assembles messages and state from it.
	 */
	@Test
	void officialClientAcceptsEveryKindOfEvent(@TempDir Path directory) throws Exception {
		Path packages = NpmCommands.directory();
		Plan plan = Plan.of("Trip", List.of("Book the flight", "Book the hotel"));
		Plan started = plan.withStep(plan.step(0).start());
		Plan done = started.withStep(started.step(0).complete("booked"));
		AgentResult paused = new AgentResult("thread-1", "", AgentResult.Status.INTERRUPTED, Usage.EMPTY, List.of(),
				List.of(), List.of(new PendingTurn.PendingToolCall("c9", "delete_file", "{\"path\":\"a\"}",
						"Deleting cannot be undone")));
		Map<String, String> streams = new LinkedHashMap<>();
		streams.put("text and tools", sse(new AgentEvent.ReasoningDelta("Thinking"), new AgentEvent.TextDelta("Let me look."),
				new AgentEvent.ToolCallStarted("c1", "get_weather", "{\"city\":\"Lima\"}"),
				new AgentEvent.ToolCallStarted("c2", "get_weather", "{\"city\":\"Quito\"}"),
				new AgentEvent.ToolProgress("c1", "get_weather", 1, 2.0, "halfway"),
				new AgentEvent.ToolCallCompleted("c1", "get_weather", "Sunny", false),
				new AgentEvent.ToolCallCompleted("c2", "get_weather", "Rain", false),
				new AgentEvent.UsageReported(new Usage(10, 5, 15)), new AgentEvent.TextDelta("Sunny in Lima."),
				completed()));
		streams.put("text reset", sse(new AgentEvent.TextDelta("Draft"),
				new AgentEvent.RunnerFallback("react", "planner", "error"), new AgentEvent.TextReset(),
				new AgentEvent.TextDelta("Final"), completed()));
		streams.put("sub-agents", sse(new AgentEvent.ToolCallStarted("c1", "researcher", "{}"),
				new AgentEvent.SubAgentEvent("c1", "researcher", new AgentEvent.TextDelta("Found it")),
				new AgentEvent.SubAgentEvent("c1", "researcher",
						new AgentEvent.SubAgentEvent("n1", "checker", new AgentEvent.TextDelta("True"))),
				new AgentEvent.SubAgentEvent("c1", "researcher",
						new AgentEvent.SubAgentEvent("n1", "checker", new AgentEvent.Failed("model_error", "down"))),
				new AgentEvent.SubAgentEvent("c1", "researcher", new AgentEvent.ToolCallStarted("n2", "lookup", "{}")),
				new AgentEvent.SubAgentEvent("c1", "researcher",
						new AgentEvent.ToolCallCompleted("n2", "lookup", "found", false)),
				new AgentEvent.SubAgentEvent("c1", "researcher", completed()),
				new AgentEvent.ToolCallCompleted("c1", "researcher", "Found it", false), completed()));
		streams.put("plan", sse(new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.PLAN_CREATED, plan, null),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_STARTED, started, 0),
				new AgentEvent.TextDelta("Booked."),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_COMPLETED, done, 0),
				new AgentEvent.PlanUpdate(AgentEvent.PlanUpdate.STEP_STARTED, done.withStep(done.step(1).start()), 1),
				completed()));
		streams.put("to-do list", sse(
				new AgentEvent.ToolCallStarted("c1", "write_todos", "{\"todos\":[{\"content\":\"Pack\",\"status\":\"pending\"}]}"),
				new AgentEvent.ToolCallCompleted("c1", "write_todos", "To-do list saved", false), completed()));
		streams.put("interrupt", sse(new AgentEvent.TextDelta("I need approval."), new AgentEvent.Interrupted(paused)));
		streams.put("failure", sse(new AgentEvent.TextDelta("Partial"), new AgentEvent.Failed("model_error", "The model failed")));
		Path file = directory.resolve("streams.json");
		Files.writeString(file, AgentJson.mapper().writeValueAsString(streams));
		URL script = AgUiClientTests.class.getResource("/ag-ui-client/replay.mjs");
		assertThat(script).isNotNull();
		NpmCommands.Result result = NpmCommands.run(
				List.of("node", Path.of(script.toURI()).toString(), file.toString(), packages.toString()),
				Path.of(script.toURI()).getParent(), Duration.ofSeconds(60));
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		JsonNode results = AgentJson.mapper().readTree(result.stdout());

		for (String name : streams.keySet()) {
			JsonNode run = results.path(name);
			assertThat(run.path("warnings").values()).as(name).isEmpty();
			assertThat(run.path("types").get(0).asString()).as(name).isEqualTo("RUN_STARTED");
			if (!name.equals("failure")) {
				assertThat(run.path("error").isNull()).as(name + ": " + run.path("error")).isTrue();
				assertThat(run.path("finished").isObject()).as(name).isTrue();
			}
		}
		JsonNode textAndTools = results.path("text and tools").path("messages");
		assertThat(textAndTools.values()).extracting((message) -> message.path("role").asString())
			.containsExactly("user", "reasoning", "assistant", "tool", "tool", "activity", "assistant");
		assertThat(textAndTools.get(2).path("content").asString()).isEqualTo("Let me look.");
		assertThat(textAndTools.get(2).path("toolCalls").values()).extracting(JsonNode::asString)
			.containsExactly("c1", "c2");
		assertThat(textAndTools.get(6).path("content").asString()).isEqualTo("Sunny in Lima.");

		assertThat(results.path("text reset").path("types").values()).extracting(JsonNode::asString).contains("CUSTOM");

		JsonNode subagents = results.path("sub-agents");
		assertThat(subagents.path("types").values()).extracting(JsonNode::asString)
			.contains("SUBAGENT_STARTED", "SUBAGENT_ERROR", "SUBAGENT_FINISHED");
		assertThat(subagents.path("messages").values())
			.filteredOn((message) -> message.path("content").asString("").equals("Found it")
					&& message.path("role").asString().equals("assistant"))
			.singleElement()
			.satisfies((message) -> assertThat(message.path("subagentRunId").isString()).isTrue());

		JsonNode planState = results.path("plan").path("state");
		assertThat(planState.path("client").asString()).isEqualTo("kept");
		assertThat(planState.path("plan").path("steps").get(0).path("status").asString()).isEqualTo("completed");
		assertThat(results.path("plan").path("types").values()).extracting(JsonNode::asString)
			.contains("STEP_STARTED", "STEP_FINISHED");

		assertThat(results.path("to-do list").path("state").path("todos").get(0).path("content").asString())
			.isEqualTo("Pack");

		JsonNode interrupt = results.path("interrupt").path("finished");
		assertThat(interrupt.path("outcome").asString()).isEqualTo("interrupt");
		assertThat(interrupt.path("interrupts").get(0).path("toolCallId").asString()).isEqualTo("c9");

		JsonNode failure = results.path("failure");
		assertThat(failure.path("runError").path("code").asString()).isEqualTo("model_error");
		assertThat(failure.path("runError").path("message").asString()).isEqualTo("The model failed");
	}

	// the events of a turn as the route writes them: one data line per event
	private static String sse(AgentEvent... events) {
		AgUiEvents encoder = AgUiEvents.of("thread-1", "run-1", Map.of("client", "kept"));
		StringBuilder body = new StringBuilder();
		List<Map<String, Object>> encoded = new ArrayList<>(encoder.started());
		for (AgentEvent event : events) {
			encoded.addAll(encoder.next(event));
		}
		for (Map<String, Object> event : encoded) {
			body.append("data:").append(AgentJson.mapper().writeValueAsString(event)).append("\n\n");
		}
		return body.toString();
	}

	private static AgentEvent completed() {
		return new AgentEvent.Completed(new AgentResult("thread-1", "done", AgentResult.Status.COMPLETED,
				new Usage(10, 5, 15), List.of(), List.of()));
	}

	// the event types, each run of one type as one
	static List<String> collapsed(JsonNode types) {
		List<String> collapsed = new ArrayList<>();
		for (JsonNode type : types.values()) {
			if (collapsed.isEmpty() || !collapsed.get(collapsed.size() - 1).equals(type.asString())) {
				collapsed.add(type.asString());
			}
		}
		return collapsed;
	}

	/**
	 * A WebFlux application with the AG-UI route, whose scripted model looks up the weather
	 * of the city the user names and answers with it.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, ChatModelAutoConfiguration.class,
			ToolAutoConfiguration.class, ConversationStoreAutoConfiguration.class,
			AgentSessionsAutoConfiguration.class, AgentMetricsAutoConfiguration.class, AgentAutoConfiguration.class,
			AgUiAutoConfiguration.class })
	static class ClientTestApplication {

		@Bean
		ScriptedChatModel scripted() {
			return WeatherTools.callingModel();
		}

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

}
