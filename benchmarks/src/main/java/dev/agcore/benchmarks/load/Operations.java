package dev.agcore.benchmarks.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.agcore.benchmarks.AgentTurnBenchmark;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.tool.method.MethodTools;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;

/**
 * One operation of a {@link Variant}, started by a caller slot; each slot has its own
 * session, cleared after each turn so that every turn starts alike.
 */
@FunctionalInterface
interface Operations {

	String QUESTION = "What's the weather in Paris?";

	String API_KEY = "load-test-key";

	/**
	 * Start one operation.
	 * @param slot the caller's index, below the concurrency
	 * @return a future completed when the operation is, failed if its answer was wrong
	 */
	CompletableFuture<?> start(int slot);

	/**
	 * Build the operations of a variant against the fake server.
	 * @param variant the variant
	 * @param baseUrl the server's API root
	 * @return the operations
	 */
	static Operations of(Variant variant, String baseUrl) {
		return switch (variant) {
			case RAW -> raw(baseUrl);
			case NETTY -> netty(baseUrl);
			case CALL -> call(model(baseUrl));
			case TURN -> turn(model(baseUrl), false);
			case TOOL_TURN -> turn(model(baseUrl), true);
			case STREAM -> stream(model(baseUrl));
		};
	}

	private static OpenAiChatModel model(String baseUrl) {
		return OpenAiChatModel.builder().settings(OpenAiSettings.of(baseUrl, API_KEY, "fake")).build();
	}

	// the bytes of a ChatModel.call, as the server received them
	private static byte[] callBody(String baseUrl, HttpClient client) {
		call(model(baseUrl)).start(0).join();
		return send(client, HttpRequest.newBuilder(URI.create(baseUrl.replace("/v1", "/last-request"))).build());
	}

	private static Operations raw(String baseUrl) {
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.build();
		byte[] body = callBody(baseUrl, client);
		HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.header("Authorization", "Bearer " + API_KEY)
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		return (slot) -> client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply((response) -> {
			if (response.statusCode() != 200 || response.body().length == 0) {
				throw new IllegalStateException("HTTP " + response.statusCode());
			}
			return response;
		});
	}

	// Reactor Netty's shared pool, as WebClient's default connector uses it
	private static Operations netty(String baseUrl) {
		byte[] body = callBody(baseUrl, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
		reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create()
			.headers((headers) -> headers.set("Content-Type", "application/json")
				.set("Accept", "application/json")
				.set("Authorization", "Bearer " + API_KEY))
			.responseTimeout(Duration.ofSeconds(60));
		String uri = baseUrl + "/chat/completions";
		return (slot) -> client.post()
			.uri(uri)
			.send(ByteBufFlux.fromInbound(Mono.just(body)))
			.responseSingle((response, content) -> {
				if (response.status().code() != 200) {
					return Mono.error(new IllegalStateException("HTTP " + response.status().code()));
				}
				return content.asByteArray();
			})
			.toFuture();
	}

	private static byte[] send(HttpClient client, HttpRequest request) {
		try {
			return client.send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not reach the fake server: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	private static Operations call(OpenAiChatModel model) {
		ChatRequest request = ChatRequest.of(List.of(UserMessage.of(QUESTION)));
		return (slot) -> model.call(request).map((response) -> check(response)).toFuture();
	}

	private static ChatResponse check(ChatResponse response) {
		if (!FakeOpenAiServer.ANSWER.equals(response.message().text())) {
			throw new IllegalStateException("Unexpected answer");
		}
		return response;
	}

	private static Operations turn(OpenAiChatModel model, boolean tool) {
		InMemoryConversationStore store = new InMemoryConversationStore();
		Agent agent = agent(model, store, tool);
		String message = tool ? QUESTION + " " + FakeOpenAiServer.TOOL_MARKER : QUESTION;
		int tools = tool ? 1 : 0;
		return (slot) -> {
			String session = "s" + slot;
			return agent.invoke(AgentRequest.of(session, message))
				.flatMap((result) -> check(result, tools))
				.flatMap((result) -> store.clear(session).thenReturn(result))
				.toFuture();
		};
	}

	private static Mono<AgentResult> check(AgentResult result, int tools) {
		if (!FakeOpenAiServer.ANSWER.equals(result.output()) || result.toolExecutions().size() != tools) {
			return Mono.error(new IllegalStateException("Unexpected turn: " + result.status() + ", "
					+ result.toolExecutions().size() + " tool calls"));
		}
		return Mono.just(result);
	}

	private static Operations stream(OpenAiChatModel model) {
		InMemoryConversationStore store = new InMemoryConversationStore();
		Agent agent = agent(model, store, false);
		return (slot) -> {
			String session = "s" + slot;
			return agent.stream(AgentRequest.of(session, QUESTION))
				.filter(AgentEvent.TextDelta.class::isInstance)
				.count()
				.flatMap((deltas) -> (deltas == FakeOpenAiServer.STREAM_CHUNKS) ? store.clear(session)
						: Mono.error(new IllegalStateException("Expected " + FakeOpenAiServer.STREAM_CHUNKS
								+ " text deltas, got " + deltas)))
				.toFuture();
		};
	}

	private static Agent agent(OpenAiChatModel model, InMemoryConversationStore store, boolean tool) {
		return Agent.builder()
			.name("load")
			.model(model)
			.systemPrompt("You are a weather assistant.")
			.tools(tool ? MethodTools.from(new AgentTurnBenchmark.WeatherTools()) : List.of())
			.conversationStore(store)
			.build();
	}

}
