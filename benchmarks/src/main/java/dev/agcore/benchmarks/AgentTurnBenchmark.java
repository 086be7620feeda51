package dev.agcore.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatResponse;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.scheduler.Schedulers;

/**
 * The framework's own cost for one full agent turn: the user asks, the model asks for one
 * tool, the tool runs, the model answers. The model is in-process and answers instantly,
 * so everything measured is ours: the loop, argument binding, the conversation store and
 * metrics. Called through {@link Agent#call}, as users call it.
 */
@State(Scope.Thread)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class AgentTurnBenchmark {

	private static final ChatResponse ASK_FOR_TOOL = ScriptedChatModel
		.toolCalls(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\",\"unit\":\"CELSIUS\"}"));

	private static final ChatResponse ANSWER = ScriptedChatModel.text("It is 21 degrees and sunny in Paris.");

	/** Metrics off ({@code none}) or recorded in a Micrometer {@code SimpleMeterRegistry}. */
	@Param({ "none", "simple" })
	public String metrics;

	/**
	 * Where the tool runs: on the default tool scheduler ({@code elastic}, one thread
	 * hand-off each way), or on the caller's thread ({@code caller}, what the turn would
	 * cost without the hand-off; not a safe setting, see docs/performance.md).
	 */
	@Param({ "elastic", "caller" })
	public String tools;

	private Agent agent;

	private InMemoryConversationStore store;

	@Setup
	public void setUp() {
		this.store = new InMemoryConversationStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			return (messages.get(messages.size() - 1) instanceof UserMessage) ? ASK_FOR_TOOL : ANSWER;
		}).withoutRecording();
		AgentMetrics agentMetrics = "simple".equals(this.metrics)
				? new MicrometerAgentMetrics(new SimpleMeterRegistry()) : AgentMetrics.NOOP;
		this.agent = Agent.builder()
			.name("bench")
			.model(model)
			.systemPrompt("You are a weather assistant.")
			.tools(MethodTools.from(new WeatherTools()))
			.conversationStore(this.store)
			.metrics(agentMetrics)
			.toolScheduler("caller".equals(this.tools) ? Schedulers.immediate() : Schedulers.boundedElastic())
			.build();
	}

	@Benchmark
	public AgentResult oneToolTurn() {
		AgentResult result = this.agent.call("session", "What's the weather in Paris?");
		// keep the conversation from growing across invocations: every turn starts the same
		this.store.clear("session").block();
		return result;
	}

	/** The tool the model calls. */
	public static class WeatherTools {

		public enum Unit {

			CELSIUS, FAHRENHEIT

		}

		@Tool(name = "get_weather", description = "Current weather for a city", permission = "read-only", secrets = {})
		public String weather(@ToolParam(description = "City name") String city, Unit unit) {
			return (unit == Unit.CELSIUS) ? "21 degrees, sunny" : "70 degrees, sunny";
		}

	}

}
