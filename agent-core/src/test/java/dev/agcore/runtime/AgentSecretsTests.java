package dev.agcore.runtime;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.agcore.Tool;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.observation.MicrometerAgentMetrics;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.secret.ActiveSecrets;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static dev.agcore.runtime.AgentToolPolicyTests.toolResults;
import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Secret references through the agent loop: resolved for the tool only in the
 * parameters it declares, and found nowhere else, neither in the conversation, nor in
 * what the model is sent back, nor in logs or metrics.
 */
class AgentSecretsTests {

	private static final String SECRET = "sk-live-7f3a9c2e51";

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ApiTools api = new ApiTools();

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

	private Level rootLevel;

	@BeforeEach
	void captureEverythingLogged() {
		this.rootLevel = this.root.getLevel();
		this.root.setLevel(Level.TRACE);
		this.logs.start();
		this.root.addAppender(this.logs);
	}

	@AfterEach
	void stopCapturing() {
		this.root.detachAppender(this.logs);
		this.root.setLevel(this.rootLevel);
	}

	@Test
	void secretsAreResolvedForEligibleParametersOnlyAndNeverLeak() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(
				new ToolCall("c1", "call_api", "{\"url\":\"https://api.example\",\"apiKey\":\"<secret_ref:API_KEY>\"}"),
				new ToolCall("c2", "fetch", "{\"url\":\"https://api.example/?key=<secret_ref:API_KEY>\"}"),
				new ToolCall("c3", "call_api", "{\"url\":\"https://api.example\",\"apiKey\":\"<secret_ref:NOPE>\"}"),
				new ToolCall("c4", "strict_api", "{\"apiKey\":\"Bearer <secret_ref:API_KEY>\"}")), text("done"));
		Agent agent = agent(model);

		AgentResult result = agent.call("s1", "call the API");

		assertThat(this.api.received).containsExactlyInAnyOrder(SECRET, "Bearer " + SECRET);
		assertThat(toolResults(model.requests().get(1))).extracting(ToolResultMessage::text)
			.containsExactly("called https://api.example with <secret_ref:API_KEY>",
					"Error: tool 'fetch' was not run: parameter 'url' may not carry a secret reference; this tool "
							+ "accepts none",
					"Error: tool 'call_api' was not run: unknown secret 'NOPE' in parameter 'apiKey'",
					"Error: tool 'strict_api' failed: IllegalStateException: key Bearer <secret_ref:API_KEY> "
							+ "was rejected");
		List<Message> stored = this.store.load("s1").block().messages();
		assertThat(AgentJson.mapper().writeValueAsString(stored)).contains("<secret_ref:API_KEY>")
			.doesNotContain(SECRET);
		assertThat(result.toString()).doesNotContain(SECRET);
		assertNotLoggedOrMeasured();
	}

	@Test
	void streamedEventsNeverCarryTheSecret() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "call_api",
				"{\"url\":\"https://api.example\",\"apiKey\":\"<secret_ref:API_KEY>\"}")), text("done"));

		List<AgentEvent> events = agent(model).stream(AgentRequest.of("s1", "call"))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(events).hasSize(6).allSatisfy((event) -> assertThat(event.toString()).doesNotContain(SECRET));
		assertThat(this.api.received).containsExactly(SECRET);
		assertNotLoggedOrMeasured();
	}

	@Test
	void escapedAndEncodedFormsOfASecretAreScrubbedFromResults() {
		// 21 bytes in UTF-8: its Base64 form has no partial group
		String secret = "p\"a\\ss/w\u00f6rd\nline-7f3";
		EncodingTools tools = new EncodingTools();
		ScriptedChatModel model = ScriptedChatModel.replaying(
				toolCalls(new ToolCall("c1", "encode", "{\"secret\":\"<secret_ref:ODD>\"}")), text("done"));
		Agent agent = Agent.builder().name("api-agent").model(model).conversationStore(this.store)
			.tools(MethodTools.from(tools))
			.secretResolver(SecretResolver.of(Map.of("ODD", secret)))
			.build();

		agent.call("s1", "encode it");

		String result = toolResults(model.requests().get(1)).get(0).text();
		assertThat(tools.seenActive).containsExactly("<secret_ref:ODD>");
		assertThat(result).isEqualTo("{\"json\":\"<secret_ref:ODD>\",\"url\":\"<secret_ref:ODD>\","
				+ "\"base64\":\"<secret_ref:ODD>\",\"nested\":\"{\\\"k\\\":\\\"<secret_ref:ODD>\\\"}\"}");
		assertThat(result).doesNotContain(secret, "7f3", "line");
		assertThat(ActiveSecrets.isActive()).isFalse();
	}

	private Agent agent(ScriptedChatModel model) {
		return Agent.builder().name("api-agent").model(model).conversationStore(this.store)
			.tools(MethodTools.from(this.api))
			.secretResolver(SecretResolver.of(Map.of("API_KEY", SECRET)))
			.metrics(new MicrometerAgentMetrics(this.meters))
			.build();
	}

	private void assertNotLoggedOrMeasured() {
		assertThat(this.logs.list).isNotEmpty();
		for (ILoggingEvent event : this.logs.list) {
			assertThat(event.getFormattedMessage()).doesNotContain(SECRET);
			for (IThrowableProxy thrown = event.getThrowableProxy(); thrown != null; thrown = thrown.getCause()) {
				assertThat(thrown.getMessage()).doesNotContain(SECRET);
			}
		}
		for (Meter meter : this.meters.getMeters()) {
			assertThat(meter.getId().getName()).doesNotContain(SECRET);
			assertThat(meter.getId().getTags()).extracting(Tag::getValue).noneMatch((value) -> value.contains(SECRET));
		}
	}

	static class EncodingTools {

		final List<String> seenActive = new CopyOnWriteArrayList<>();

		@Tool(name = "encode", secrets = "secret")
		String encode(String secret) {
			this.seenActive.add(ActiveSecrets.scrub(secret));
			Map<String, String> forms = new LinkedHashMap<>();
			forms.put("json", secret);
			forms.put("url", URLEncoder.encode(secret, StandardCharsets.UTF_8));
			forms.put("base64", Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
			forms.put("nested", AgentJson.mapper().writeValueAsString(Map.of("k", secret)));
			return AgentJson.mapper().writeValueAsString(forms);
		}

	}

	static class ApiTools {

		final List<String> received = new CopyOnWriteArrayList<>();

		@Tool(name = "call_api", secrets = "apiKey")
		String call(String url, String apiKey) {
			this.received.add(apiKey);
			LoggerFactory.getLogger(ApiTools.class).debug("calling {}", url);
			return "called " + url + " with " + apiKey;
		}

		@Tool(name = "fetch", secrets = {})
		String fetch(String url) {
			this.received.add(url);
			return "fetched";
		}

		@Tool(name = "strict_api", secrets = "apiKey")
		String strict(String apiKey) {
			this.received.add(apiKey);
			throw new IllegalStateException("key " + apiKey + " was rejected");
		}

	}

}
