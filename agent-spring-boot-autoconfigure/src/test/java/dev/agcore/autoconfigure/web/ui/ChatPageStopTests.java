package dev.agcore.autoconfigure.web.ui;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.autoconfigure.web.AgentWebAutoConfiguration;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chat page's stop button aborts its fetch of the stream, which closes the
 * connection: the turn is then cancelled on the server, down to the model call, and
 * nothing of it is stored. Over a real connection, as only a closed socket shows that.
 */
class ChatPageStopTests {

	@Test
	void closingTheStreamCancelsTheTurnsModelCall() {
		CountDownLatch modelCallCancelled = new CountDownLatch(1);
		ChatModel endless = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.never();
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				// a first piece, then a model that keeps thinking until the turn is cancelled
				return Flux.concat(Flux.just(ChatChunk.text("Thinking")), Flux.<ChatChunk>never())
					.doOnCancel(modelCallCancelled::countDown);
			}

		};
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
					ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
					AgentAutoConfiguration.class, AgentWebAutoConfiguration.class))
			.withBean("endless", ChatModel.class, () -> endless)
			.withPropertyValues("agent.web.enabled=true", "agent.agents.assistant.provider=endless")
			.run((context) -> {
				RouterFunction<?> routes = context.getBean("agentRouterFunction", RouterFunction.class);
				DisposableServer server = HttpServer.create()
					.host("127.0.0.1")
					.port(0)
					.handle(new ReactorHttpHandlerAdapter(RouterFunctions.toHttpHandler(routes)))
					.bindNow();
				try {
					ServerSentEvent<String> first = WebClient.create("http://127.0.0.1:" + server.port())
						.post()
						.uri("/agents/assistant/stream")
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(Map.of("sessionId", "stop-1", "message", "Think forever"))
						.retrieve()
						.bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {
						})
						// the page's stop: take what came, then close the connection
						.next()
						.block(Duration.ofSeconds(10));
					assertThat(first).isNotNull();
					assertThat(first.event()).isEqualTo("text");
					assertThat(modelCallCancelled.await(10, TimeUnit.SECONDS))
						.as("the model call was cancelled once the client closed the stream")
						.isTrue();
					Agent assistant = context.getBean(AgentRegistry.class).find("assistant").orElseThrow();
					assertThat(assistant.history("stop-1").block(Duration.ofSeconds(10)))
						.as("nothing of the stopped turn is stored")
						.isEmpty();
				}
				finally {
					server.disposeNow();
				}
			});
	}

}
