package dev.agcore.benchmarks;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatResponse;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.scheduler.Schedulers;

/**
 * What observing a turn costs: the one-tool turn of {@link AgentTurnBenchmark} (metrics
 * on, the tool on the caller's thread) without an observation registry, with one whose
 * only handler turns observations into timers (what Spring Boot installs with Actuator),
 * and with that handler plus OpenTelemetry tracing through Micrometer's bridge, every
 * span sampled and ended into a batch processor whose exporter drops it (what
 * {@code spring-boot-starter-opentelemetry} installs, minus the network). A one-tool turn
 * makes four spans: the turn, two model calls and the tool call.
 */
@State(Scope.Thread)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class ObservedTurnBenchmark {

	private static final ChatResponse ASK_FOR_TOOL = ScriptedChatModel
		.toolCalls(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\",\"unit\":\"CELSIUS\"}"));

	private static final ChatResponse ANSWER = ScriptedChatModel.text("It is 21 degrees and sunny in Paris.");

	/** {@code off}: no observation registry; {@code meters}: observations as timers; {@code tracing}: and spans. */
	@Param({ "off", "meters", "tracing" })
	public String observations;

	private Agent agent;

	private InMemoryConversationStore store;

	private SdkTracerProvider tracerProvider;

	@Setup
	public void setUp() {
		this.store = new InMemoryConversationStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			List<Message> messages = request.messages();
			return (messages.get(messages.size() - 1) instanceof UserMessage) ? ASK_FOR_TOOL : ANSWER;
		}).withoutRecording();
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		var builder = Agent.builder()
			.name("bench")
			.model(model)
			.systemPrompt("You are a weather assistant.")
			.tools(MethodTools.from(new AgentTurnBenchmark.WeatherTools()))
			.conversationStore(this.store)
			.metrics(new MicrometerAgentMetrics(meters))
			.toolScheduler(Schedulers.immediate());
		if (!"off".equals(this.observations)) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
			if ("tracing".equals(this.observations)) {
				registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer()));
			}
			builder.observationRegistry(registry);
		}
		this.agent = builder.build();
	}

	private OtelTracer tracer() {
		this.tracerProvider = SdkTracerProvider.builder()
			.setSampler(Sampler.alwaysOn())
			.addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build())
			.build();
		OtelCurrentTraceContext context = new OtelCurrentTraceContext();
		return new OtelTracer(this.tracerProvider.get("agcore-benchmark"), context, (event) -> {
		}, new OtelBaggageManager(context, List.of(), List.of()));
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.tracerProvider != null) {
			this.tracerProvider.close();
		}
	}

	@Benchmark
	public AgentResult oneToolTurn() {
		AgentResult result = this.agent.call("session", "What's the weather in Paris?");
		this.store.clear("session").block();
		return result;
	}

	/** Takes every batch of spans and drops it, as an exporter to an unreachable backend would not. */
	static final class DroppingExporter implements SpanExporter {

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
