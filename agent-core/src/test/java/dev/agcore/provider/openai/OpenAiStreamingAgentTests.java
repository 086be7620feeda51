package dev.agcore.provider.openai;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.model.ModelResponseException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a streamed turn over {@link OpenAiChatModel} whose stream is incomplete
 * fails and stores nothing.
 */
class OpenAiStreamingAgentTests {

	private static final String CUT_BEFORE_FINISH_REASON = """
			data: {"choices":[{"index":0,"delta":{"content":"The answer is"}}]}

			""";

	private static final String CHUNKS_WITHOUT_CHOICES = """
			data: {"id":"x"}

			data: {"id":"x","choices":[]}

			data: [DONE]

			""";

	private static final String KEEP_ALIVES_ONLY = """
			: keep-alive

			: keep-alive

			""";

	private final MockWebServer server = new MockWebServer();

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@BeforeEach
	void startServer() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { CUT_BEFORE_FINISH_REASON, CHUNKS_WITHOUT_CHOICES, KEEP_ALIVES_ONLY })
	void incompleteStreamEndsTheTurnWithAnErrorEventAndStoresNothing(String body) {
		this.server.enqueue(Fixtures.sse(body));
		OpenAiChatModel model = OpenAiChatModel.builder()
			.settings(OpenAiSettings.of(this.server.url("/v1").toString(), "sk-test", "gpt-4o-mini"))
			.build();
		Agent agent = Agent.builder().name("a").model(model).conversationStore(this.store).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "What is the answer?"))
			.collectList()
			.block(Duration.ofSeconds(10));

		assertThat(events).last().isInstanceOfSatisfying(AgentEvent.Failed.class, (failed) -> {
			assertThat(failed.errorType()).isEqualTo("ModelResponseException");
			assertThat(failed.cause()).isInstanceOf(ModelResponseException.class);
		});
		assertThat(events).noneMatch((event) -> event instanceof AgentEvent.Completed);
		assertThat(this.store.load("s1").block(Duration.ofSeconds(5)).messages()).isEmpty();
	}

}
