package dev.agcore.resilience;

import java.io.IOException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelConnectionException;
import dev.agcore.model.ModelException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelResponseException;
import dev.agcore.model.ModelServerException;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import io.github.resilience4j.retry.RetryRegistry;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryingChatModel} around a real {@link OpenAiChatModel} and a
 * {@link MockWebServer}.
 */
class RetryingChatModelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	private static final ChatRequest HELLO = ChatRequest.of(List.of(new UserMessage("Hello")));

	private static final RetrySettings FAST = RetrySettings.DEFAULTS.withInitialBackoff(Duration.ofMillis(10))
		.withMaxBackoff(Duration.ofMillis(50))
		.withJitter(0);

	private static final String ANSWER = """
			{"id": "c1", "object": "chat.completion", "model": "gpt-4o-mini",
			 "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi!"}, "finish_reason": "stop"}],
			 "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}
			""";

	private static final String FIRST_EVENT = """
			data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}

			""";

	private static final String STREAM = FIRST_EVENT + """
			data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}

			data: [DONE]

			""";

	private final TimedQueueDispatcher dispatcher = new TimedQueueDispatcher();

	private final MockWebServer server = new MockWebServer();

	private OpenAiChatModel openAi;

	@BeforeEach
	void startServer() throws IOException {
		this.server.setDispatcher(this.dispatcher);
		this.server.start();
		this.openAi = OpenAiChatModel.builder()
			.settings(OpenAiSettings.of(this.server.url("/v1").toString(), "sk-test", "gpt-4o-mini"))
			.build();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void rateLimitedCallIsRetriedAfterTheServersWait() {
		this.dispatcher.enqueue(error(429).setHeader("Retry-After", "1").build());
		this.dispatcher.enqueue(answer());
		RetryingChatModel model = new RetryingChatModel(this.openAi, RetrySettings.DEFAULTS);
		ChatResponse response = model.call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi!");
		assertThat(this.server.getRequestCount()).isEqualTo(2);
		assertThat(this.dispatcher.gapMillis(0, 1)).isGreaterThanOrEqualTo(900);
	}

	@Test
	void eachRetriedFailureIsLoggedAtWarnWithItsMessage() {
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		Logger logger = (Logger) LoggerFactory.getLogger(RetryingChatModel.class);
		logs.start();
		logger.addAppender(logs);
		try {
			this.dispatcher.enqueue(error(503).build());
			this.dispatcher.enqueue(error(500).build());
			this.dispatcher.enqueue(answer());
			new RetryingChatModel(this.openAi, FAST).call(HELLO).block(TIMEOUT);
		}
		finally {
			logger.detachAppender(logs);
		}
		assertThat(logs.list).hasSize(2).allSatisfy((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).startsWith("Model call to provider 'openai' failed, retrying in ");
		});
		assertThat(logs.list.get(0).getFormattedMessage()).contains("503");
	}

	@Test
	void serverErrorIsRetried() {
		this.dispatcher.enqueue(error(500).build());
		this.dispatcher.enqueue(answer());
		ChatResponse response = new RetryingChatModel(this.openAi, FAST).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi!");
		assertThat(this.server.getRequestCount()).isEqualTo(2);
	}

	@Test
	void authenticationFailureIsNotRetried() {
		this.dispatcher.enqueue(error(401).build());
		this.dispatcher.enqueue(answer());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).call(HELLO))
			.expectError(ModelAuthenticationException.class)
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void malformedResponseIsNotRetried() {
		this.dispatcher.enqueue(new MockResponse.Builder().code(200).body("{not json").build());
		this.dispatcher.enqueue(answer());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).call(HELLO))
			.expectError(ModelResponseException.class)
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void exhaustedAttemptsPropagateTheLastException() {
		this.dispatcher.enqueue(error(503).build());
		this.dispatcher.enqueue(error(502).build());
		this.dispatcher.enqueue(error(500).build());
		this.dispatcher.enqueue(answer());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST.withMaxAttempts(3)).call(HELLO))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(ModelServerException.class);
				assertThat(((ModelException) ex).statusCode()).isEqualTo(500);
			})
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(3);
	}

	@Test
	void streamFailingBeforeItsFirstChunkIsRetried() {
		this.dispatcher.enqueue(error(503).build());
		this.dispatcher.enqueue(sse(STREAM).build());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).stream(HELLO).map(ChatChunk::textDelta))
			.expectNext("Hel", "lo")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(2);
	}

	@Test
	void rateLimitedStreamIsRetried() {
		this.dispatcher.enqueue(error(429).setHeader("Retry-After", "0").build());
		this.dispatcher.enqueue(sse(STREAM).build());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).stream(HELLO).map(ChatChunk::textDelta))
			.expectNext("Hel", "lo")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(2);
	}

	@Test
	void streamFailingAfterItsFirstChunkIsNotRetried() {
		// the socket closes at half the body, after the first event went out
		String body = FIRST_EVENT + ": " + "x".repeat(FIRST_EVENT.length() * 2) + "\n\n" + STREAM;
		this.dispatcher.enqueue(sse(body).onResponseBody(new SocketEffect.CloseSocket()).build());
		this.dispatcher.enqueue(sse(STREAM).build());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).stream(HELLO).map(ChatChunk::textDelta))
			.expectNext("Hel")
			.expectError(ModelConnectionException.class)
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void serverErrorIsRetriedAfterTheServersWaitInsteadOfTheBackoff() {
		this.dispatcher.enqueue(error(503).setHeader("Retry-After", "1").build());
		this.dispatcher.enqueue(answer());
		ChatResponse response = new RetryingChatModel(this.openAi, FAST).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi!");
		assertThat(this.server.getRequestCount()).isEqualTo(2);
		assertThat(this.dispatcher.gapMillis(0, 1)).isBetween(900L, 10_000L);
	}

	@Test
	void serverErrorHonoursRetryAfterMs() {
		this.dispatcher.enqueue(error(502).setHeader("retry-after-ms", "800").build());
		this.dispatcher.enqueue(answer());
		ChatResponse response = new RetryingChatModel(this.openAi, FAST).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi!");
		assertThat(this.dispatcher.gapMillis(0, 1)).isBetween(700L, 10_000L);
	}

	@Test
	void serverErrorHonoursRetryAfterHttpDate() {
		// whole seconds: the date lies between 2 and 3 seconds ahead
		String date = DateTimeFormatter.RFC_1123_DATE_TIME
			.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(3).truncatedTo(ChronoUnit.SECONDS));
		this.dispatcher.enqueue(error(503).setHeader("Retry-After", date).build());
		this.dispatcher.enqueue(answer());
		ChatResponse response = new RetryingChatModel(this.openAi, FAST).call(HELLO).block(TIMEOUT);
		assertThat(response.message().text()).isEqualTo("Hi!");
		assertThat(this.dispatcher.gapMillis(0, 1)).isBetween(1_500L, 10_000L);
	}

	@Test
	void retryAfterLongerThanTheCapFailsAtOnceNamingTheWait() {
		this.dispatcher.enqueue(error(429).setHeader("Retry-After", "3600").build());
		this.dispatcher.enqueue(answer());
		StepVerifier.create(new RetryingChatModel(this.openAi, RetrySettings.DEFAULTS).call(HELLO))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(ModelRateLimitException.class).hasMessageContaining("3600 s");
				assertThat(((ModelException) ex).retryAfter()).isEqualTo(Duration.ofHours(1));
			})
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void retryAfterLongerThanAConfiguredCapFailsAtOnce() {
		this.dispatcher.enqueue(error(503).setHeader("Retry-After", "2").build());
		this.dispatcher.enqueue(answer());
		RetrySettings settings = FAST.withMaxRetryAfter(Duration.ofSeconds(1));
		StepVerifier.create(new RetryingChatModel(this.openAi, settings).call(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
				.hasMessageContaining("retry after 2 s"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void streamFailingBeforeItsFirstChunkIsRetriedAfterTheServersWait() {
		this.dispatcher.enqueue(error(503).setHeader("Retry-After", "1").build());
		this.dispatcher.enqueue(sse(STREAM).build());
		StepVerifier.create(new RetryingChatModel(this.openAi, FAST).stream(HELLO).map(ChatChunk::textDelta))
			.expectNext("Hel", "lo")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(2);
		assertThat(this.dispatcher.gapMillis(0, 1)).isBetween(900L, 10_000L);
	}

	@Test
	void streamWithRetryAfterLongerThanTheCapFailsAtOnce() {
		this.dispatcher.enqueue(error(429).setHeader("Retry-After", "3600").build());
		this.dispatcher.enqueue(sse(STREAM).build());
		StepVerifier.create(new RetryingChatModel(this.openAi, RetrySettings.DEFAULTS).stream(HELLO))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelRateLimitException.class)
				.hasMessageContaining("3600 s"))
			.verify(TIMEOUT);
		assertThat(this.server.getRequestCount()).isEqualTo(1);
	}

	@Test
	void retryIsObservableThroughItsRegistry() {
		this.dispatcher.enqueue(error(500).build());
		this.dispatcher.enqueue(answer());
		RetryRegistry registry = RetryRegistry.ofDefaults();
		RetryingChatModel model = new RetryingChatModel(this.openAi, FAST, registry);
		AtomicInteger retries = new AtomicInteger();
		model.retry().getEventPublisher().onRetry((event) -> retries.incrementAndGet());
		model.call(HELLO).block(TIMEOUT);
		assertThat(registry.find("agent-openai")).containsSame(model.retry());
		assertThat(retries).hasValue(1);
		assertThat(model.retry().getMetrics().getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
	}

	@Test
	void delegatesNames() {
		RetryingChatModel model = new RetryingChatModel(this.openAi, FAST);
		assertThat(model.providerName()).isEqualTo("openai");
		assertThat(model.modelName()).isEqualTo("gpt-4o-mini");
		assertThat(model.retry().getName()).isEqualTo("agent-openai");
		assertThat(model.delegate()).isSameAs(this.openAi);
	}

	@Test
	void eachSubscriptionGetsItsOwnAttempts() {
		AtomicInteger calls = new AtomicInteger();
		ChatModel flaky = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.defer(() -> (calls.incrementAndGet() % 2 == 1)
						? Mono.error(new ModelRateLimitException("test", "slow down", Duration.ZERO))
						: Mono.just(ChatResponse.of(dev.agcore.message.AssistantMessage.of("ok"))));
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.error(new IllegalStateException("not used"));
			}

		};
		Mono<ChatResponse> call = new RetryingChatModel(flaky, FAST.withMaxAttempts(2)).call(HELLO);
		assertThat(call.block(TIMEOUT).message().text()).isEqualTo("ok");
		assertThat(call.block(TIMEOUT).message().text()).isEqualTo("ok");
		assertThat(calls).hasValue(4);
	}

	private static MockResponse.Builder error(int status) {
		return new MockResponse.Builder().code(status)
			.addHeader("Content-Type", "application/json")
			.body("{\"error\": {\"message\": \"status " + status + "\", \"type\": \"test\"}}");
	}

	private static MockResponse answer() {
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json").body(ANSWER).build();
	}

	private static MockResponse.Builder sse(String body) {
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "text/event-stream").body(body);
	}

}
