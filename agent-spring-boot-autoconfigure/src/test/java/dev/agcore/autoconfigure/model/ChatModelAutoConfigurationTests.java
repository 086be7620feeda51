package dev.agcore.autoconfigure.model;

import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ModelServerException;
import dev.agcore.provider.openai.OpenAiChatModel;
import dev.agcore.provider.openai.OpenAiSettings;
import dev.agcore.resilience.RetryingChatModel;
import dev.agcore.testing.ScriptedChatModel;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ChatModelAutoConfiguration}.
 */
class ChatModelAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class));

	private final MockWebServer server = new MockWebServer();

	@BeforeEach
	void startServer() throws Exception {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void registryIsEmptyWithoutProvidersOrBeans() {
		this.contextRunner.run((context) -> assertThat(context.getBean(ChatModelRegistry.class).names()).isEmpty());
	}

	@Test
	void providerBecomesRetryingOpenAiModel() {
		this.contextRunner
			.withPropertyValues("agent.providers.openai.base-url=https://api.openai.com/v1",
					"agent.providers.openai.api-key=sk-test", "agent.providers.openai.model=gpt-4o-mini",
					"agent.providers.openai.temperature=0.2", "agent.providers.openai.max-tokens=256",
					"agent.providers.openai.response-timeout=10s", "agent.retry.max-attempts=5")
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				assertThat(registry.providerNames()).containsExactly("openai");
				ChatModel model = registry.get("openai");
				assertThat(model).isInstanceOf(RetryingChatModel.class);
				RetryingChatModel retrying = (RetryingChatModel) model;
				assertThat(retrying.retry().getRetryConfig().getMaxAttempts()).isEqualTo(5);
				assertThat(retrying.delegate()).isInstanceOf(OpenAiChatModel.class);
				OpenAiSettings settings = ((OpenAiChatModel) retrying.delegate()).settings();
				assertThat(settings.providerName()).isEqualTo("openai");
				assertThat(settings.baseUrl()).isEqualTo("https://api.openai.com/v1");
				assertThat(settings.apiKey()).isEqualTo("sk-test");
				assertThat(settings.model()).isEqualTo("gpt-4o-mini");
				assertThat(settings.temperature()).isEqualTo(0.2);
				assertThat(settings.maxTokens()).isEqualTo(256);
				assertThat(settings.responseTimeout()).isEqualTo(Duration.ofSeconds(10));
			});
	}

	@Test
	void providerOfExplicitTypeKeepsItsName() {
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=openai",
					"agent.providers.local.base-url=http://localhost:11434/v1", "agent.providers.local.model=llama3")
			.run((context) -> assertThat(context.getBean(ChatModelRegistry.class).get("local").providerName())
				.isEqualTo("local"));
	}

	@Test
	void chatModelBeansAreAvailableByBeanName() {
		ScriptedChatModel scripted = ScriptedChatModel.replaying();
		this.contextRunner.withBean("myModel", ChatModel.class, () -> scripted)
			.run((context) -> {
				ChatModelRegistry registry = context.getBean(ChatModelRegistry.class);
				assertThat(registry.beanNames()).containsExactly("myModel");
				assertThat(registry.get("myModel")).isSameAs(scripted);
			});
	}

	@Test
	void maxConnectionsBoundsTheConnectionsToTheProvidersServer() throws Exception {
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		this.server.setDispatcher(new Dispatcher() {
			@Override
			public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
				most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
				release.await(10, TimeUnit.SECONDS);
				inFlight.decrementAndGet();
				return completion("Hi");
			}
		});
		this.contextRunner.withPropertyValues(provider("openai"))
			.withPropertyValues("agent.providers.openai.max-connections=2")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				List<Mono<ChatResponse>> calls = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					calls.add(model.call(ChatRequest.of(List.of(new UserMessage("Hello " + i)))));
				}
				Mono<List<ChatResponse>> all = Flux.merge(calls).collectList().cache();
				all.subscribe();
				// two calls reach the server; the other two wait for a connection
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
				while (this.server.getRequestCount() < 2 && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				Thread.sleep(300);
				assertThat(this.server.getRequestCount()).isEqualTo(2);
				release.countDown();
				assertThat(all.block(Duration.ofSeconds(10))).hasSize(4);
				assertThat(most.get()).isEqualTo(2);
				assertThat(context.getBean(ProviderConnectionPools.class).pool("openai").maxConnections())
					.isEqualTo(2);
			});
	}

	@Test
	void maxConnectionsBelowOneFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues(provider("openai"))
			.withPropertyValues("agent.providers.openai.max-connections=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.providers.openai.max-connections must be at least 1"));
	}

	@Test
	void providerUsesWebClientBuilderBean() throws Exception {
		this.server.enqueue(completion("Hi"));
		this.contextRunner
			.withBean(WebClient.Builder.class,
					() -> WebClient.builder().defaultHeader("X-Custom", "from-the-builder-bean"))
			.withPropertyValues(provider("openai"))
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
					.assertNext((response) -> assertThat(response.message().text()).isEqualTo("Hi"))
					.expectComplete()
					.verify(Duration.ofSeconds(10));
				RecordedRequest request = this.server.takeRequest(5, TimeUnit.SECONDS);
				assertThat(request.getHeaders().get("X-Custom")).isEqualTo("from-the-builder-bean");
				assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-test");
			});
	}

	@Test
	void theWebClientBuilderIsAskedForWhenTheModelFirstSendsARequestNotAtStartup() {
		this.server.enqueue(completion("Hi"));
		this.server.enqueue(completion("Again"));
		AtomicInteger builders = new AtomicInteger();
		this.contextRunner.withBean(WebClient.Builder.class, () -> {
			builders.incrementAndGet();
			return WebClient.builder();
		}, (definition) -> definition.setScope("prototype"))
			.withPropertyValues(provider("openai"))
			.withPropertyValues("agent.providers.openai.max-connections=4")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				assertThat(builders).hasValue(0);
				assertThat(context.getBean(ProviderConnectionPools.class).pool("openai")).isNull();
				for (String text : List.of("Hi", "Again")) {
					StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
						.assertNext((response) -> assertThat(response.message().text()).isEqualTo(text))
						.expectComplete()
						.verify(Duration.ofSeconds(10));
				}
				assertThat(builders).hasValue(1);
				assertThat(context.getBean(ProviderConnectionPools.class).pool("openai").maxConnections()).isEqualTo(4);
			});
	}

	@Test
	void providerRetriesServerErrors() {
		this.server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"busy\"}}").build());
		this.server.enqueue(completion("Hi after retry"));
		this.contextRunner.withPropertyValues(provider("openai"))
			.withPropertyValues("agent.retry.initial-backoff=1ms", "agent.retry.max-backoff=5ms")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
					.assertNext((response) -> assertThat(response.message().text()).isEqualTo("Hi after retry"))
					.expectComplete()
					.verify(Duration.ofSeconds(10));
				assertThat(this.server.getRequestCount()).isEqualTo(2);
			});
	}

	@Test
	void providerAskingForLongerThanMaxRetryAfterIsNotRetried() {
		this.server.enqueue(new MockResponse.Builder().code(503)
			.setHeader("Retry-After", "2")
			.body("{\"error\":{\"message\":\"busy\"}}")
			.build());
		this.server.enqueue(completion("Hi after retry"));
		this.contextRunner.withPropertyValues(provider("openai"))
			.withPropertyValues("agent.retry.max-retry-after=1s")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
					.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ModelServerException.class)
						.hasMessageContaining("retry after 2 s"))
					.verify(Duration.ofSeconds(10));
				assertThat(this.server.getRequestCount()).isEqualTo(1);
			});
	}

	@Test
	void singleAttemptDoesNotRetry() {
		this.server.enqueue(new MockResponse.Builder().code(500).body("{\"error\":{\"message\":\"boom\"}}").build());
		this.contextRunner.withPropertyValues(provider("openai")).withPropertyValues("agent.retry.max-attempts=1")
			.run((context) -> {
				ChatModel model = context.getBean(ChatModelRegistry.class).get("openai");
				StepVerifier.create(model.call(ChatRequest.of(List.of(new UserMessage("Hello")))))
					.expectError(ModelServerException.class)
					.verify(Duration.ofSeconds(10));
				assertThat(this.server.getRequestCount()).isEqualTo(1);
			});
	}

	@Test
	void missingBaseUrlFails() {
		this.contextRunner.withPropertyValues("agent.providers.openai.model=gpt-4o-mini")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("agent.providers.openai.base-url must be set"));
	}

	@Test
	void invalidBaseUrlFailsNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.providers.local.type=openai", "agent.providers.local.base-url=http://my host/v1",
					"agent.providers.local.model=llama3")
			.run((context) -> {
				Throwable failure = context.getStartupFailure();
				while (failure != null && !(failure instanceof AgentConfigurationException)) {
					failure = failure.getCause();
				}
				assertThat(failure).isInstanceOf(AgentConfigurationException.class)
					.hasMessage("agent.providers.local.base-url is not a valid URL: Illegal character in authority "
							+ "at index 7: http://my host/v1")
					.hasCauseInstanceOf(URISyntaxException.class);
			});
	}

	@Test
	void missingModelFails() {
		this.contextRunner.withPropertyValues("agent.providers.openai.base-url=http://localhost/v1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.providers.openai.model must be set"));
	}

	@Test
	void unknownTypeFails() {
		this.contextRunner
			.withPropertyValues("agent.providers.main.type=palm", "agent.providers.main.base-url=http://x/v1",
					"agent.providers.main.model=m")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.providers.main.type: unknown provider type 'palm'; supported types: "
						+ ProviderModels.TYPES));
	}

	@Test
	void typeDefaultingToUnknownNameFails() {
		this.contextRunner
			.withPropertyValues("agent.providers.mylocal.base-url=http://localhost:11434/v1",
					"agent.providers.mylocal.model=llama3")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.providers.mylocal.type is not set")
				.hasMessageContaining("supported types: " + ProviderModels.TYPES)
				.satisfies((ex) -> assertThat(((AgentConfigurationException) ex).getAction())
					.contains("Set agent.providers.mylocal.type")));
	}

	@Test
	void invalidRetryFails() {
		this.contextRunner.withPropertyValues(provider("openai")).withPropertyValues("agent.retry.max-attempts=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.retry.max-attempts must be at least 1 (was 0)"));
	}

	@Test
	void invalidMaxTokensFails() {
		this.contextRunner.withPropertyValues(provider("openai")).withPropertyValues("agent.providers.openai.max-tokens=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("agent.providers.openai.max-tokens must be at least 1 (was 0)"));
	}

	@Test
	void providerAndBeanOfTheSameNameFail() {
		this.contextRunner.withPropertyValues(provider("openai"))
			.withBean("openai", ChatModel.class, ScriptedChatModel::replaying)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.providers.openai and the ChatModel bean 'openai' share the name 'openai'"));
	}

	@Test
	void userRegistryWins() {
		ChatModelRegistry registry = new ChatModelRegistry(java.util.Map.of(), java.util.Map.of());
		this.contextRunner.withBean(ChatModelRegistry.class, () -> registry)
			.withPropertyValues("agent.providers.openai.model=not-validated")
			.run((context) -> assertThat(context).getBean(ChatModelRegistry.class).isSameAs(registry));
	}

	private String[] provider(String name) {
		return new String[] { "agent.providers." + name + ".base-url=" + this.server.url("/v1"),
				"agent.providers." + name + ".api-key=sk-test", "agent.providers." + name + ".model=gpt-4o-mini" };
	}

	static MockResponse completion(String text) {
		String body = """
				{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
				 "choices": [{"index": 0, "message": {"role": "assistant", "content": "%s"}, "finish_reason": "stop"}],
				 "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}}
				""".formatted(text);
		return new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json").body(body).build();
	}

}
