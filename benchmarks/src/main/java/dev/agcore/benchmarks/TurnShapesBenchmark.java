package dev.agcore.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.ModelCall;
import dev.agcore.middleware.ToolCallHandler;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentBuilder;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
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
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The turn in other shapes than {@link AgentTurnBenchmark}'s: three parallel tool calls
 * in one response, and a streamed turn whose answer arrives in 50 chunks; each with 0, 3
 * or 10 middlewares that override every hook and pass through, so the difference is the
 * chain's own cost per hook. Metrics on (Micrometer {@code SimpleMeterRegistry}); tools on
 * the caller's thread, so the thread hand-off does not hide the framework's work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class TurnShapesBenchmark {

	private static final ChatResponse ASK_FOR_ONE = ScriptedChatModel
		.toolCalls(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\",\"unit\":\"CELSIUS\"}"));

	private static final ChatResponse ASK_FOR_THREE = ScriptedChatModel.toolCalls(
			new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\",\"unit\":\"CELSIUS\"}"),
			new ToolCall("call_2", "get_weather", "{\"city\":\"Lyon\",\"unit\":\"CELSIUS\"}"),
			new ToolCall("call_3", "get_weather", "{\"city\":\"Nice\",\"unit\":\"FAHRENHEIT\"}"));

	private static final ChatResponse SHORT_ANSWER = ScriptedChatModel.text("It is 21 degrees and sunny.");

	/** 50 words: ScriptedChatModel streams a text answer one word per chunk. */
	private static final ChatResponse LONG_ANSWER = ScriptedChatModel.text(fiftyWords());

	/**
	 * {@code one-tool}: the one-tool turn of {@link AgentTurnBenchmark};
	 * {@code three-tools}: three calls in one response, run in parallel;
	 * {@code streamed}: a turn without tools streamed through {@link Agent#stream}, 50
	 * text chunks.
	 */
	@Param({ "one-tool", "three-tools", "streamed" })
	public String shape;

	/** How many pass-through middlewares wrap every hook. */
	@Param({ "0", "3", "10" })
	public int middlewares;

	private Agent agent;

	private InMemoryConversationStore store;

	@Setup
	public void setUp() {
		this.store = new InMemoryConversationStore();
		ChatResponse ask = "three-tools".equals(this.shape) ? ASK_FOR_THREE : ASK_FOR_ONE;
		boolean streamed = "streamed".equals(this.shape);
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			if (streamed) {
				return LONG_ANSWER;
			}
			List<Message> messages = request.messages();
			return (messages.get(messages.size() - 1) instanceof UserMessage) ? ask : SHORT_ANSWER;
		}).withoutRecording();
		AgentBuilder builder = Agent.builder()
			.name("bench")
			.model(model)
			.systemPrompt("You are a weather assistant.")
			.tools(MethodTools.from(new AgentTurnBenchmark.WeatherTools()))
			.conversationStore(this.store)
			.metrics(new MicrometerAgentMetrics(new SimpleMeterRegistry()))
			.toolScheduler(Schedulers.immediate());
		for (int i = 0; i < this.middlewares; i++) {
			builder.middleware(new PassThrough("pass-" + i));
		}
		this.agent = builder.build();
	}

	@Benchmark
	public Object turn() {
		Object result = "streamed".equals(this.shape)
				? this.agent.stream(AgentRequest.of("session", "Tell me about the weather.")).blockLast()
				: this.agent.call("session", "What's the weather?");
		// every turn starts from an empty conversation
		this.store.clear("session").block();
		return result;
	}

	private static String fiftyWords() {
		List<String> words = new ArrayList<>(50);
		for (int i = 0; i < 50; i++) {
			words.add("word" + i);
		}
		return String.join(" ", words);
	}

	/** Overrides every hook and changes nothing: what the chain costs per hook. */
	static final class PassThrough implements AgentMiddleware {

		private final String name;

		PassThrough(String name) {
			this.name = name;
		}

		@Override
		public void beforeAgent(AgentContext context, List<Message> messages) {
		}

		@Override
		public void afterAgent(AgentContext context, List<Message> messages) {
		}

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			return request;
		}

		@Override
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			return response;
		}

		@Override
		public Mono<ChatResponse> wrapModelCall(AgentContext context, ChatRequest request, ModelCall next) {
			return next.call(request);
		}

		@Override
		public Mono<ToolResultMessage> wrapToolCall(AgentContext context, ToolCall call, ToolCallHandler next) {
			return next.call(call);
		}

		@Override
		public String name() {
			return this.name;
		}

	}

}
