package dev.agcore.testing.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.TestTools;
import dev.agcore.testing.ScriptedChatModel;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.agcore.testing.assertj.AgentAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Record and replay: a turn recorded against an OpenAI-compatible server (a
 * {@link MockWebServer} acting as the real provider) replays with the server stopped,
 * without the API key in the cassette, and a changed request fails with a diff.
 */
class CassetteChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String API_KEY = "sk-live-0123456789abcdef";

	private static final String ANSWER = """
			{"id": "chatcmpl-1", "model": "gpt-4o-mini-2024-07-18",
			 "choices": [{"index": 0, "finish_reason": "stop",
			              "message": {"role": "assistant", "content": "Hello! How can I help?"}}],
			 "usage": {"prompt_tokens": 19, "completion_tokens": 7, "total_tokens": 26}}
			""";

	private final MockWebServer server = new MockWebServer();

	@TempDir
	Path cassettes;

	@BeforeEach
	void startServer() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void turnRecordedAgainstTheProviderReplaysWithTheServerStopped() throws IOException {
		this.server.enqueue(new MockResponse.Builder().code(200)
			.addHeader("Content-Type", "application/json")
			.body(ANSWER)
			.build());
		CassetteChatModel recording = CassetteChatModel.builder("greeting")
			.directory(this.cassettes)
			.mode(ReplayMode.RECORD)
			.build(this::realModel);
		AgentResult recorded = agent(recording).call("s1", "Hello");
		this.server.close();

		CassetteChatModel replaying = CassetteChatModel.builder("greeting")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.build(() -> {
				throw new AssertionError("a replaying cassette must not create the real model");
			});
		AgentResult replayed = agent(replaying).call("s1", "Hello");

		assertThat(recorded).endedWith("Hello! How can I help?");
		assertThat(replayed).isCompleted().endedWith("Hello! How can I help?").usedTokens(26);
		replaying.assertAllPlayed();
		assertThat(replaying.providerName()).isEqualTo("openai");
		assertThat(replaying.modelName()).isEqualTo("gpt-4o-mini");
		String cassette = Files.readString(this.cassettes.resolve("greeting.json"));
		assertThat(cassette).contains("\"text\" : \"Hello\"", "Hello! How can I help?")
			.doesNotContain(API_KEY)
			.doesNotContainIgnoringCase("authorization")
			.doesNotContainIgnoringCase("bearer");
	}

	@Test
	void cassetteInTestResourcesReplaysOffline() {
		// recorded once with -Dagcore.replay.mode=record; replayed from
		// src/test/resources/cassettes/weather-turn.json ever since
		CassetteChatModel model = CassetteChatModel.builder("weather-turn")
			.build(() -> ScriptedChatModel.builder()
				.thenCallTool("get_weather", Map.of("city", "Paris"))
				.thenReply("Sunny in Paris, 24°C")
				.build());
		Agent agent = Agent.builder()
			.name("weather")
			.systemPrompt("You report the weather.")
			.model(model)
			.tool(TestTools.tool("get_weather", (arguments, context) -> "sunny, 24°C"))
			.build();

		AgentResult result = agent.call("s1", "Weather in Paris?");

		assertThat(result).endedWith("Sunny in Paris, 24°C").calledTool("get_weather").withArgument("city", "Paris");
		model.assertAllPlayed();
	}

	@Test
	void streamedTurnIsRecordedAndReplayedAsAStream() {
		ScriptedChatModel provider = ScriptedChatModel.builder().thenReply("Streamed answer here").build();
		CassetteChatModel recording = CassetteChatModel.builder("streamed")
			.directory(this.cassettes)
			.mode(ReplayMode.RECORD)
			.build(() -> provider);
		assertThat(agent(recording).stream(AgentRequest.of("s1", "Hi"))).hasText("Streamed answer here");

		CassetteChatModel replaying = CassetteChatModel.builder("streamed")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.build(() -> provider);

		assertThat(agent(replaying).stream(AgentRequest.of("s1", "Hi"))).hasText("Streamed answer here")
			.hasEventTypesInOrder("text", "text", "usage", "completed");
		assertThat(provider.requests()).hasSize(1);
	}

	@Test
	void changedRequestFailsWithADiffOfTheRecordedAndActualRequest() {
		record("changed", "Hello");
		CassetteChatModel replaying = CassetteChatModel.builder("changed")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.build(this::realModel);

		assertThatExceptionOfType(ReplayMismatchError.class)
			.isThrownBy(() -> replaying.call(ChatRequest.of(List.of(new UserMessage("Goodbye")))).block(TIMEOUT))
			.withMessageContaining("Request #1 differs from the one recorded in " + this.cassettes.resolve("changed.json"))
			.withMessageContaining("record again with -Dagcore.replay.mode=record")
			.withMessageContaining("--- recorded\n+++ actual\n")
			.withMessageContaining("""
					      "kind" : "user",
					-     "text" : "Hello"
					+     "text" : "Goodbye"
					    } ],
					""");
	}

	@Test
	void mismatchInATurnReachesTheTestAsTheReplayError() {
		record("turn-mismatch", "Hello");
		CassetteChatModel replaying = CassetteChatModel.builder("turn-mismatch")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.build(this::realModel);

		assertThat(agent(replaying).stream(AgentRequest.of("s1", "Goodbye"))).failedWith("differs from the one recorded");
	}

	@Test
	void extraAndMissingRequestsAreReported() {
		record("one-request", "Hello");
		CassetteChatModel replaying = CassetteChatModel.builder("one-request")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.build(this::realModel);

		assertThatExceptionOfType(ReplayMismatchError.class).isThrownBy(replaying::assertAllPlayed)
			.withMessageContaining("1 requests were recorded")
			.withMessageContaining("but only 0 were made");
		replaying.call(ChatRequest.of(List.of(new UserMessage("Hello")))).block(TIMEOUT);
		assertThatExceptionOfType(ReplayMismatchError.class)
			.isThrownBy(() -> replaying.call(ChatRequest.of(List.of(new UserMessage("Again")))).block(TIMEOUT))
			.withMessageContaining("Request #2 was not recorded");
	}

	@Test
	void secretsAreRedactedInTheFileAndBeforeComparing() throws IOException {
		ScriptedChatModel provider = ScriptedChatModel.builder().thenReply("Your token tok-42 works").build();
		CassetteChatModel recording = CassetteChatModel.builder("redacted")
			.directory(this.cassettes)
			.mode(ReplayMode.RECORD)
			.redact("tok-42", null, "")
			.build(() -> provider);
		recording.call(ChatRequest.of(List.of(new UserMessage("Check tok-42")))).block(TIMEOUT);

		CassetteChatModel replaying = CassetteChatModel.builder("redacted")
			.directory(this.cassettes)
			.mode(ReplayMode.REPLAY)
			.redact("tok-42")
			.build(() -> provider);

		assertThat(Files.readString(recording.file())).doesNotContain("tok-42").contains("Check <redacted>");
		assertThat(replaying.call(ChatRequest.of(List.of(new UserMessage("Check tok-42")))).block(TIMEOUT)
			.message()
			.text()).isEqualTo("Your token <redacted> works");
	}

	@Test
	void autoModeOnCiRefusesToRecordWithoutACassette() {
		ScriptedChatModel provider = ScriptedChatModel.builder().thenReply("recorded").build();
		assertThatIllegalStateException().isThrownBy(() -> CassetteChatModel.builder("missing")
			.directory(this.cassettes)
			.mode(ReplayMode.AUTO)
			.environment((name) -> "CI".equals(name) ? "true" : null)
			.build(() -> provider))
			.withMessageContaining("No cassette")
			.withMessageContaining("CI=true");
		assertThat(provider.requests()).isEmpty();
	}

	@Test
	void autoModeRecordsWithoutACassetteAndReplaysWithOne() {
		ScriptedChatModel provider = ScriptedChatModel.builder().thenReply("recorded").build();
		CassetteChatModel first = CassetteChatModel.builder("auto")
			.directory(this.cassettes)
			.mode(ReplayMode.AUTO)
			.environment((name) -> null)
			.build(() -> provider);
		assertThat(first.mode()).isEqualTo(ReplayMode.RECORD);
		assertThat(first.file()).as("no file before the first call").doesNotExist();
		first.call(ChatRequest.of(List.of(new UserMessage("Hi")))).block(TIMEOUT);

		CassetteChatModel second = CassetteChatModel.builder("auto")
			.directory(this.cassettes)
			.mode(ReplayMode.AUTO)
			.environment((name) -> null)
			.build(() -> provider);

		assertThat(second.mode()).isEqualTo(ReplayMode.REPLAY);
		assertThat(second.call(ChatRequest.of(List.of(new UserMessage("Hi")))).block(TIMEOUT).message().text())
			.isEqualTo("recorded");
	}

	@Test
	void modeIsReadFromThePropertyThenTheEnvironment() {
		assertThat(ReplayMode.configured(Map.of("agcore.replay.mode", "Record")::get, Map.<String, String>of()::get))
			.isEqualTo(ReplayMode.RECORD);
		assertThat(ReplayMode.configured(Map.<String, String>of()::get, Map.of("AGCORE_REPLAY_MODE", "replay")::get))
			.isEqualTo(ReplayMode.REPLAY);
		assertThat(ReplayMode.configured(Map.<String, String>of()::get, Map.<String, String>of()::get))
			.isEqualTo(ReplayMode.AUTO);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ReplayMode.configured(Map.of("agcore.replay.mode", "rec")::get, Map.<String, String>of()::get))
			.withMessage("agcore.replay.mode must be record, replay or auto (was 'rec')");
	}

	private void record(String name, String message) {
		ScriptedChatModel provider = ScriptedChatModel.builder().thenReply("Hi").build();
		CassetteChatModel.builder(name)
			.directory(this.cassettes)
			.mode(ReplayMode.RECORD)
			.build(() -> provider)
			.call(ChatRequest.of(List.of(new UserMessage(message))))
			.block(TIMEOUT);
	}

	private ChatModel realModel() {
		return OpenAiChatModel.builder()
			.settings(OpenAiSettings.of(this.server.url("/v1").toString(), API_KEY, "gpt-4o-mini"))
			.build();
	}

	private static Agent agent(ChatModel model) {
		return Agent.builder().name("greeter").systemPrompt("You greet people.").model(model).build();
	}

}
