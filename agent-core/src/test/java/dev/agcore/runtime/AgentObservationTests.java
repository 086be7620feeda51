package dev.agcore.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agcore.Tool;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.builtin.PiiRedactionMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ModelServerException;
import dev.agcore.observation.AgentObservationDocumentation.HighCardinalityKeyNames;
import dev.agcore.observation.AgentObservations;
import dev.agcore.observation.ChatObservationContext;
import dev.agcore.observation.ContentCapture;
import dev.agcore.observation.ExecuteToolObservationContext;
import dev.agcore.observation.InvokeAgentObservationContext;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.resilience.RetrySettings;
import dev.agcore.resilience.RetryingChatModel;
import dev.agcore.testing.ScriptedChatModel;

import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observations of a turn: the tree of a turn with parallel tools and a retried model
 * call, bounded meter tags, and content capture.
 */
class AgentObservationTests {

	private static final RetrySettings FAST = RetrySettings.DEFAULTS.withInitialBackoff(Duration.ofMillis(5))
		.withMaxBackoff(Duration.ofMillis(10));

	private static final String SECRET = "sk-live-7f3a9c2e51";

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final Recorder recorder = new Recorder();

	AgentObservationTests() {
		this.observations.observationConfig().observationHandler(this.recorder);
	}

	@Test
	void aTurnWithTwoParallelToolsAndARetryIsOneTree() {
		CountDownLatch bothRunning = new CountDownLatch(2);
		ChatModel model = new RetryingChatModel(failingOnce(toolCalls(new ToolCall("c1", "lookup", "{}"),
				new ToolCall("c2", "weather", "{}")), text("It is sunny.")), FAST);
		Agent agent = Agent.builder()
			.name("helper")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tool(parallel("lookup", bothRunning))
			.tool(parallel("weather", bothRunning))
			.middleware(PiiRedactionMiddleware.builder().build())
			.metrics(new MicrometerAgentMetrics(this.meters))
			.observationRegistry(this.observations)
			.build();

		AgentResult result = agent.call("s1", "What is the weather?");

		assertThat(result.output()).isEqualTo("It is sunny.");
		TestObservationRegistryAssert.assertThat(this.observations)
			.doesNotHaveAnyRemainingCurrentObservation()
			.hasNumberOfObservationsWithNameEqualTo("gen_ai.invoke_agent", 1)
			.hasNumberOfObservationsWithNameEqualTo("gen_ai.client.operation", 2)
			.hasNumberOfObservationsWithNameEqualTo("gen_ai.execute_tool", 2)
			.hasObservationWithNameEqualTo("gen_ai.invoke_agent")
			.that()
			.hasContextualNameEqualTo("invoke_agent helper")
			.hasLowCardinalityKeyValue("gen_ai.operation.name", "invoke_agent")
			.hasLowCardinalityKeyValue("gen_ai.agent.name", "helper")
			.hasLowCardinalityKeyValue("gen_ai.provider.name", "scripted")
			.hasLowCardinalityKeyValue("gen_ai.request.model", "scripted")
			.hasLowCardinalityKeyValue("agent.outcome", "completed")
			.hasLowCardinalityKeyValue("error.type", "none")
			.hasHighCardinalityKeyValue("gen_ai.conversation.id", "s1")
			.hasHighCardinalityKeyValue("agent.model_calls", "2")
			.hasHighCardinalityKeyValue("agent.tool_calls", "2")
			.hasBeenStopped();
		List<Observation.Context> contexts = List.copyOf(this.recorder.contexts);
		InvokeAgentObservationContext turn = only(contexts, InvokeAgentObservationContext.class);
		assertThat(turn.getParentObservation()).isNull();
		List<ChatObservationContext> chats = all(contexts, ChatObservationContext.class);
		assertThat(chats).allSatisfy((chat) -> {
			assertThat(chat.getParentObservation().getContextView()).isSameAs(turn);
			assertThat(chat.getContextualName()).isEqualTo("chat scripted");
			assertThat(chat.getLowCardinalityKeyValue("gen_ai.operation.name").getValue()).isEqualTo("chat");
			assertThat(chat.getLowCardinalityKeyValue("gen_ai.response.model").getValue()).isEqualTo("scripted");
			assertThat(chat.getLowCardinalityKeyValue("error.type").getValue()).isEqualTo("none");
			assertThat(chat.getHighCardinalityKeyValue("gen_ai.conversation.id").getValue()).isEqualTo("s1");
		});
		assertThat(chats).extracting((chat) -> chat.getLowCardinalityKeyValue("gen_ai.response.finish_reasons")
			.getValue()).containsExactly("tool_calls", "stop");
		List<ExecuteToolObservationContext> tools = all(contexts, ExecuteToolObservationContext.class);
		assertThat(tools).allSatisfy((tool) -> {
			assertThat(tool.getParentObservation().getContextView()).isSameAs(turn);
			assertThat(tool.getLowCardinalityKeyValue("gen_ai.operation.name").getValue()).isEqualTo("execute_tool");
			assertThat(tool.getLowCardinalityKeyValue("agent.outcome").getValue()).isEqualTo("success");
		});
		assertThat(tools).extracting(ExecuteToolObservationContext::getContextualName)
			.containsExactlyInAnyOrder("execute_tool lookup", "execute_tool weather");
		assertThat(tools).extracting((tool) -> tool.getHighCardinalityKeyValue("gen_ai.tool.call.id").getValue())
			.containsExactlyInAnyOrder("c1", "c2");
		// the retry is an event of the first model call; the hooks are events of the turn,
		// those of them the middleware has (PII redaction has no after-agent hook)
		assertThat(this.recorder.events).containsOnlyOnce("gen_ai.client.operation:retry")
			.contains("gen_ai.invoke_agent:before_agent", "gen_ai.invoke_agent:before_model",
					"gen_ai.invoke_agent:after_model")
			.doesNotContain("gen_ai.invoke_agent:after_agent");
		assertThat(this.meters.get("agent.model.retries").tag("reason", "server").counter().count()).isEqualTo(1);
		assertThat(this.meters.get("agent.turn.tool.calls").summary().totalAmount()).isEqualTo(2);
		assertThat(this.meters.get("agent.turn.model.calls").summary().totalAmount()).isEqualTo(2);
		assertThat(this.meters.get("gen_ai.invoke_agent.duration").tag("outcome", "completed").timer().count())
			.isEqualTo(1);
	}

	@Test
	void aStreamedModelCallEndsWithItsLastChunkInsideTheTurn() {
		Agent agent = Agent.builder()
			.name("helper")
			.model(ScriptedChatModel.replaying(text("Hello there, friend.")))
			.conversationStore(new InMemoryConversationStore())
			.observationRegistry(this.observations)
			.build();

		agent.stream(AgentRequest.of("s2", "Hi")).collectList().block(Duration.ofSeconds(5));

		TestObservationRegistryAssert.assertThat(this.observations)
			.doesNotHaveAnyRemainingCurrentObservation()
			.hasObservationWithNameEqualTo("gen_ai.client.operation")
			.that()
			.hasBeenStarted()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("gen_ai.response.finish_reasons", "stop");
		List<Observation.Context> contexts = List.copyOf(this.recorder.contexts);
		ChatObservationContext chat = only(contexts, ChatObservationContext.class);
		assertThat(chat.isStreaming()).isTrue();
		assertThat(chat.getParentObservation().getContextView())
			.isSameAs(only(contexts, InvokeAgentObservationContext.class));
	}

	@Test
	void aSubAgentsTurnIsAChildOfTheToolCallThatAskedIt() {
		Agent researcher = Agent.builder()
			.name("researcher")
			.model(ScriptedChatModel.replaying(text("Paris")))
			.observationRegistry(this.observations)
			.build();
		Agent lead = Agent.builder()
			.name("lead")
			.model(ScriptedChatModel.replaying(
					toolCalls(new ToolCall("c1", "researcher", "{\"task\":\"capital of France?\"}")),
					text("It is Paris.")))
			.tool(SubAgentTool.of(researcher))
			.observationRegistry(this.observations)
			.build();

		lead.call("s5", "Where is the Eiffel tower?");

		List<InvokeAgentObservationContext> turns = all(List.copyOf(this.recorder.contexts),
				InvokeAgentObservationContext.class);
		assertThat(turns).extracting(InvokeAgentObservationContext::getAgentName).containsExactly("lead", "researcher");
		ExecuteToolObservationContext tool = only(List.copyOf(this.recorder.contexts),
				ExecuteToolObservationContext.class);
		assertThat(tool.getParentObservation().getContextView()).isSameAs(turns.get(0));
		assertThat(turns.get(1).getParentObservation().getContextView()).isSameAs(tool);
		TestObservationRegistryAssert.assertThat(this.observations).doesNotHaveAnyRemainingCurrentObservation();
	}

	@Test
	void noMeterTagTakesAValueFromTheConversation() {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.meters));
		String userText = "Where is parcel 4711-XZ for jane.doe@example.com?";
		String modelText = "Parcel 4711-XZ is in Rotterdam.";
		ChatModel model = new RetryingChatModel(failingOnce(
				toolCalls(new ToolCall("call-9f2e", "track", "{\"parcel\":\"4711-XZ\"}"),
						new ToolCall("call-b71c", "invented_tool", "{}")),
				text(modelText)), FAST);
		Agent agent = Agent.builder()
			.name("tracker")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tool(TestTools.tool("track", (arguments, context) -> "parcel 4711-XZ: Rotterdam depot"))
			.middleware(PiiRedactionMiddleware.builder().build())
			.metrics(new MicrometerAgentMetrics(this.meters))
			.observations(AgentObservations.builder(registry)
				.contentCapture(ContentCapture.on(4096, PiiRedactionMiddleware.redactor()))
				.build())
			.build();

		agent.call("session-5d1a", userText);

		List<String> forbidden = List.of("session-5d1a", "call-9f2e", "call-b71c", "4711", "jane", "Rotterdam",
				"invented_tool", "Where is", "parcel");
		List<String> highCardinalityKeys = new ArrayList<>();
		for (HighCardinalityKeyNames key : HighCardinalityKeyNames.values()) {
			highCardinalityKeys.add(key.asString());
		}
		assertThat(this.meters.getMeters()).isNotEmpty()
			.extracting(Meter::getId)
			.extracting((id) -> id.getName())
			.contains("gen_ai.invoke_agent", "gen_ai.client.operation", "gen_ai.execute_tool",
					"gen_ai.client.operation.duration", "agent.tool.calls", "agent.model.retries",
					"agent.store.operation", "gen_ai.invoke_agent.duration", "agent.turn.model.calls");
		for (Meter meter : this.meters.getMeters()) {
			for (Tag tag : meter.getId().getTags()) {
				assertThat(highCardinalityKeys).as("tag key of %s", meter.getId()).doesNotContain(tag.getKey());
				for (String value : forbidden) {
					assertThat(tag.getValue()).as("tag %s of %s", tag.getKey(), meter.getId().getName())
						.doesNotContainIgnoringCase(value);
				}
			}
		}
	}

	@Test
	void contentIsNotCapturedByDefault() {
		agentWithSecrets(AgentObservations.builder(this.observations).build()).call("s3",
				"Call the API for jane.doe@example.com");

		assertThat(this.recorder.contexts).isNotEmpty().allSatisfy((context) -> {
			for (KeyValue value : context.getHighCardinalityKeyValues()) {
				assertThat(value.getKey()).isNotIn("gen_ai.input.messages", "gen_ai.output.messages",
						"gen_ai.tool.call.arguments", "gen_ai.tool.call.result");
			}
		});
	}

	@Test
	void capturedContentHasSecretsAndPersonalDataRedacted() {
		agentWithSecrets(AgentObservations.builder(this.observations)
			.contentCapture(ContentCapture.on(4096, PiiRedactionMiddleware.redactor()))
			.build()).call("s4", "Call the API for jane.doe@example.com");

		List<Observation.Context> contexts = List.copyOf(this.recorder.contexts);
		ChatObservationContext first = all(contexts, ChatObservationContext.class).get(0);
		assertThat(first.getHighCardinalityKeyValue("gen_ai.input.messages").getValue())
			.contains("user: Call the API for [REDACTED_EMAIL]")
			.doesNotContain("jane.doe");
		assertThat(first.getHighCardinalityKeyValue("gen_ai.output.messages").getValue())
			.contains("tool_call call_api");
		ExecuteToolObservationContext tool = only(contexts, ExecuteToolObservationContext.class);
		assertThat(tool.getHighCardinalityKeyValue("gen_ai.tool.call.arguments").getValue())
			.contains("<secret_ref:API_KEY>")
			.doesNotContain(SECRET);
		assertThat(tool.getHighCardinalityKeyValue("gen_ai.tool.call.result").getValue())
			.isEqualTo("called https://api.example with <secret_ref:API_KEY>");
		for (Observation.Context context : contexts) {
			for (KeyValue value : context.getHighCardinalityKeyValues()) {
				assertThat(value.getValue()).doesNotContain(SECRET).doesNotContain("jane.doe@example.com");
			}
		}
	}

	@Test
	void capturedContentIsCutToItsMaximumLength() {
		ContentCapture capture = ContentCapture.on(10, (text) -> text);

		assertThat(capture.clean("0123456789abcdef")).isEqualTo("0123456789[truncated 6 characters]");
		assertThat(ContentCapture.OFF.enabled()).isFalse();
	}

	private Agent agentWithSecrets(AgentObservations observations) {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "call_api",
						"{\"url\":\"https://api.example\",\"apiKey\":\"<secret_ref:API_KEY>\"}")),
				text("Done."));
		return Agent.builder()
			.name("api-agent")
			.model(model)
			.conversationStore(new InMemoryConversationStore())
			.tools(MethodTools.from(new ApiTools()))
			.secretResolver(SecretResolver.of(Map.of("API_KEY", SECRET)))
			.observations(observations)
			.build();
	}

	/** A model that fails its first call with a retryable server error, then replays. */
	private static ChatModel failingOnce(dev.agcore.model.ChatResponse... responses) {
		ScriptedChatModel.Builder script = ScriptedChatModel.builder()
			.thenFail(new ModelServerException("scripted", 503, "overloaded"));
		for (dev.agcore.model.ChatResponse response : responses) {
			script.thenRespond(response);
		}
		return script.build();
	}

	/** A tool that returns only once both tools run at the same time. */
	private static ToolCallback parallel(String name, CountDownLatch bothRunning) {
		return TestTools.tool(name, (arguments, context) -> {
			bothRunning.countDown();
			assertThat(bothRunning.await(5, TimeUnit.SECONDS)).as("both tools run at once").isTrue();
			return name + " done";
		});
	}

	private static <T> T only(List<Observation.Context> contexts, Class<T> type) {
		List<T> matching = all(contexts, type);
		assertThat(matching).hasSize(1);
		return matching.get(0);
	}

	private static <T> List<T> all(List<Observation.Context> contexts, Class<T> type) {
		return contexts.stream().filter(type::isInstance).map(type::cast).toList();
	}

	static class ApiTools {

		@Tool(name = "call_api", secrets = "apiKey")
		String call(String url, String apiKey) {
			return "called " + url + " with " + apiKey;
		}

	}

	/** Records the contexts of started observations, and events as {@code observation:event}. */
	private static final class Recorder implements ObservationHandler<Observation.Context> {

		final List<Observation.Context> contexts = new CopyOnWriteArrayList<>();

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void onStart(Observation.Context context) {
			this.contexts.add(context);
		}

		@Override
		public void onEvent(Observation.Event event, Observation.Context context) {
			this.events.add(context.getName() + ":" + event.getContextualName());
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
