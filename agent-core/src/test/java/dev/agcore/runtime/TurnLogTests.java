package dev.agcore.runtime;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ModelServerException;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ContentCapture;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static java.util.stream.Collectors.toMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the turn log: one INFO line per finished turn on {@code dev.agcore.turns},
 * DEBUG lines per model and tool call, content only when captured.
 */
class TurnLogTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger turns = (Logger) LoggerFactory.getLogger(TurnLog.TURNS_LOGGER);

	private Level level;

	@BeforeEach
	void capture() {
		this.level = this.turns.getLevel();
		this.turns.setLevel(Level.INFO);
		this.logs.start();
		this.turns.addAppender(this.logs);
	}

	@AfterEach
	void stop() {
		this.turns.detachAppender(this.logs);
		this.turns.setLevel(this.level);
		((Logger) LoggerFactory.getLogger(TurnLog.MODEL_LOGGER)).setLevel(null);
		((Logger) LoggerFactory.getLogger(TurnLog.TOOL_LOGGER)).setLevel(null);
	}

	@Test
	void oneInfoLinePerFinishedTurnWithItsFields() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("Sunny in Paris."));
		List<TurnSummary> summaries = new CopyOnWriteArrayList<>();
		Agent agent = agent(model).turnSummaryListener(summaries::add).build();

		agent.call("s1", "Weather in Paris?");

		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLoggerName()).isEqualTo("dev.agcore.turns");
			assertThat(event.getLevel()).isEqualTo(Level.INFO);
			assertThat(event.getFormattedMessage()).startsWith(
					"Turn completed: agent=weather session=s1 outcome=completed model_calls=2 tool_calls=1 "
							+ "input_tokens=20 output_tokens=")
				.contains(" duration_ms=")
				.doesNotContain("Paris");
			assertThat(keyValues(event)).containsEntry("agent", "weather")
				.containsEntry("session", "s1")
				.containsEntry("outcome", "completed")
				.containsEntry("model_calls", 2)
				.containsEntry("tool_calls", 1)
				.containsKeys("input_tokens", "output_tokens", "duration_ms")
				.doesNotContainKey("cost");
		});
		assertThat(summaries).singleElement().satisfies((summary) -> {
			assertThat(summary.outcome()).isEqualTo(TurnSummary.Outcome.COMPLETED);
			assertThat(summary.modelCalls()).isEqualTo(2);
			assertThat(summary.toolCalls()).isEqualTo(1);
			assertThat(summary.failureCode()).isNull();
		});
	}

	@Test
	void streamedTurnsAreLoggedOnce() {
		Agent agent = agent(ScriptedChatModel.replaying(text("hi"))).build();

		agent.stream(AgentRequest.of("s2", "hello")).collectList().block();

		assertThat(this.logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.startsWith("Turn completed: agent=weather session=s2 outcome=completed model_calls=1 tool_calls=0");
	}

	@Test
	void failedTurnIsLoggedWithItsStableCode() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("openai", 500, "upstream broke");
		});
		Agent agent = agent(model).build();

		assertThatExceptionOfType(ModelServerException.class).isThrownBy(() -> agent.call("s3", "hi"));

		assertThat(this.logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.startsWith("Turn failed: agent=weather session=s3 outcome=failed error=model_error model_calls=1 "
					+ "tool_calls=0");
	}

	@Test
	void maxIterationsIsAnOutcome() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "get_weather", "{}")));
		Agent agent = agent(model).maxIterations(1).build();

		agent.call("s4", "hi");

		assertThat(this.logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("outcome=max_iterations model_calls=1 tool_calls=1");
	}

	@Test
	void nothingIsLoggedWhenTheLoggerIsOff() {
		this.turns.setLevel(Level.OFF);
		agent(ScriptedChatModel.replaying(text("hi"))).build().call("s5", "hi");

		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void debugLinesSummarizeModelAndToolCallsWithoutContent() {
		debug();
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("Sunny in Paris."));

		agent(model).build().call("s6", "Weather in Paris?");

		List<String> lines = this.logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		assertThat(lines).hasSize(4);
		assertThat(lines.get(0)).startsWith("Model call: agent=weather session=s6 provider=")
			.contains(" messages=1 tools=1 finish_reason=tool_calls input_tokens=10 ")
			.contains(" tool_calls=1 duration_ms=");
		assertThat(lines.get(1)).startsWith("Tool call: agent=weather session=s6 tool=get_weather error=false duration_ms=");
		assertThat(lines.get(2)).contains(" messages=3 tools=1 finish_reason=stop ");
		assertThat(lines.get(3)).startsWith("Turn completed:");
		assertThat(lines).noneMatch((line) -> line.contains("Paris"));
	}

	@Test
	void debugLinesHoldContentWhenCaptured() {
		debug();
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "get_weather", "{\"city\":\"Paris\"}")), text("Sunny in Paris."));

		agent(model)
			.observations(AgentObservations.builder(ObservationRegistry.NOOP)
				.contentCapture(ContentCapture.on(100, UnaryOperator.identity()))
				.build())
			.build().call("s7", "Weather in Paris?");

		List<String> lines = this.logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		assertThat(lines.get(0)).endsWith("request=\"Weather in Paris?\" response=\"\"");
		assertThat(lines.get(1)).endsWith("arguments=\"{\\\"city\\\":\\\"Paris\\\"}\" result=\"sunny\"");
		assertThat(lines.get(2)).endsWith("request=\"sunny\" response=\"Sunny in Paris.\"");
		assertThat(lines.get(3)).doesNotContain("Paris");
	}

	private void debug() {
		for (String name : List.of(TurnLog.MODEL_LOGGER, TurnLog.TOOL_LOGGER)) {
			Logger logger = (Logger) LoggerFactory.getLogger(name);
			logger.setLevel(Level.DEBUG);
		}
	}

	private AgentBuilder agent(ScriptedChatModel model) {
		return Agent.builder()
			.name("weather")
			.model(model)
			.conversationStore(this.store)
			.tools(List.of(TestTools.tool("get_weather", (args, ctx) -> "sunny")));
	}

	private static Map<String, Object> keyValues(ILoggingEvent event) {
		return event.getKeyValuePairs().stream().collect(toMap((pair) -> pair.key, (KeyValuePair pair) -> pair.value));
	}

}
