package dev.agcore.provider.openai;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.message.Message;
import dev.agcore.middleware.AgentContext;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real WebClient model delivers its responses on a reactor-netty event loop; the
 * synchronous hooks that follow must still run where they may block.
 */
class OpenAiAgentHookThreadsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final MockWebServer server = new MockWebServer();

	private final List<String> threads = new CopyOnWriteArrayList<>();

	private final List<String> onEventLoop = new CopyOnWriteArrayList<>();

	@BeforeEach
	void startServer() throws IOException {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void hooksAfterACalledOpenAiModelRunOffTheNettyEventLoop() {
		this.server.enqueue(Fixtures.json(200, "answer.json"));

		StepVerifier.create(agent().invoke(AgentRequest.of("s1", "Hello")))
			.assertNext((result) -> assertThat(result.output()).isEqualTo("Hello! How can I assist you today?"))
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.threads).extracting((entry) -> entry.substring(0, entry.indexOf(' ')))
			.containsExactly("beforeAgent", "beforeModel", "afterModel", "afterAgent");
		assertThat(this.onEventLoop).isEmpty();
	}

	@Test
	void hooksAfterAStreamedOpenAiModelRunOffTheNettyEventLoop() {
		this.server.enqueue(Fixtures.sse(Fixtures.read("stream-text.sse")));

		StepVerifier.create(agent().stream(AgentRequest.of("s1", "Hello")).last())
			.assertNext((event) -> assertThat(event).isInstanceOf(AgentEvent.Completed.class))
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.threads).extracting((entry) -> entry.substring(0, entry.indexOf(' ')))
			.containsExactly("beforeAgent", "beforeModel", "afterModel", "afterAgent");
		assertThat(this.onEventLoop).isEmpty();
	}

	private Agent agent() {
		OpenAiChatModel model = OpenAiChatModel.builder()
			.settings(OpenAiSettings.of(this.server.url("/v1").toString(), "sk-test", "gpt-4o-mini"))
			.build();
		return Agent.builder().name("openai").model(model).middleware(new Recording()).build();
	}

	private void record(String hook) {
		String entry = hook + " on " + Thread.currentThread().getName();
		this.threads.add(entry);
		if (Schedulers.isInNonBlockingThread()) {
			this.onEventLoop.add(entry);
		}
	}

	private final class Recording implements AgentMiddleware {

		@Override
		public void beforeAgent(AgentContext context, List<Message> messages) {
			record("beforeAgent");
		}

		@Override
		public ChatRequest beforeModel(AgentContext context, ChatRequest request) {
			record("beforeModel");
			return request;
		}

		@Override
		public ChatResponse afterModel(AgentContext context, ChatRequest request, ChatResponse response) {
			record("afterModel");
			return response;
		}

		@Override
		public void afterAgent(AgentContext context, List<Message> messages) {
			record("afterAgent");
		}

	}

}
