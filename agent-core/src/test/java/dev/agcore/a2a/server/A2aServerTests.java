package dev.agcore.a2a.server;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agcore.json.AgentJson;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link A2aServer} on its own: a running turn canceled through
 * {@code tasks/cancel}.
 */
class A2aServerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@Test
	void cancelStopsARunningTurnAndTheTaskIsCanceled() throws InterruptedException {
		CountDownLatch asked = new CountDownLatch(1);
		CountDownLatch stopped = new CountDownLatch(1);
		Agent agent = Agent.builder().name("slow").model(new NeverAnswering(asked, stopped)).build();
		A2aServer server = new A2aServer(agent, A2aTaskStore.of(new InMemoryKeyValueStore()));

		JsonNode started = call(server, "message/send", "{\"message\": {\"kind\": \"message\", \"role\": \"user\", "
				+ "\"messageId\": \"m-1\", \"parts\": [{\"kind\": \"text\", \"text\": \"Hello\"}]}, "
				+ "\"configuration\": {\"blocking\": false}}");
		assertThat(started.path("result").path("status").path("state").asString()).isEqualTo("working");
		String id = "{\"id\": \"" + started.path("result").path("id").asString() + "\"}";
		assertThat(asked.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("the model was asked").isTrue();

		JsonNode canceled = call(server, "tasks/cancel", id);
		assertThat(canceled.path("result").path("status").path("state").asString()).isEqualTo("canceled");
		assertThat(stopped.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("the model call was canceled").isTrue();
		assertThat(call(server, "tasks/get", id).path("result").path("status").path("state").asString())
			.isEqualTo("canceled");
		assertThat(call(server, "tasks/cancel", id).path("error").path("code").asInt()).isEqualTo(-32002);
	}

	private static JsonNode call(A2aServer server, String method, String params) {
		A2aReply reply = server
			.handle("{\"jsonrpc\": \"2.0\", \"id\": \"r\", \"method\": \"" + method + "\", \"params\": " + params + "}",
					A2aCaller.anonymous())
			.block(TIMEOUT);
		assertThat(reply).isInstanceOf(A2aReply.Json.class);
		return AgentJson.mapper().readTree(((A2aReply.Json) reply).body());
	}

	/** A model that never answers, saying when it is asked and when the call is given up. */
	private record NeverAnswering(CountDownLatch asked, CountDownLatch stopped) implements ChatModel {

		@Override
		public Mono<ChatResponse> call(ChatRequest request) {
			return Mono.<ChatResponse>never().doOnSubscribe((s) -> this.asked.countDown())
				.doOnCancel(this.stopped::countDown);
		}

		@Override
		public Flux<ChatChunk> stream(ChatRequest request) {
			return Flux.<ChatChunk>never().doOnSubscribe((s) -> this.asked.countDown())
				.doOnCancel(this.stopped::countDown);
		}

	}

}
