package dev.agcore.autoconfigure.observation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.RawArguments;
import dev.agcore.Tool;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.observation.Traceable;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.method.MethodTools;
import dev.agcore.tool.secret.SecretResolver;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TraceableAutoConfiguration}.
 */
class TraceableAutoConfigurationTests {

	private static final String SECRET = "sk-live-7f3a9c2e51";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TraceableAutoConfiguration.class))
		.withBean("quotes", QuoteService.class);

	@Test
	void recordsAnObservationWithoutTheSkippedArguments() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		Recorded recorded = recordInto(registry);
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry).run((context) -> {
			QuoteService quotes = context.getBean(QuoteService.class);
			assertThat(AopUtils.isAopProxy(quotes)).isTrue();
			assertThat(quotes.quote("ACME", "sk-secret-key")).isEqualTo("ACME: 42");
			quotes.plain();
			assertThat(registry).hasNumberOfObservationsEqualTo(1)
				.hasObservationWithNameEqualTo("agent.traceable")
				.that()
				.hasContextualNameEqualTo("QuoteService#quote")
				.hasLowCardinalityKeyValue("class", "QuoteService")
				.hasLowCardinalityKeyValue("method", "quote")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasHighCardinalityKeyValue("args.symbol", "ACME")
				.doesNotHaveHighCardinalityKeyValueWithKey("args.apiKey");
			assertThat(recorded.values()).isNotEmpty().noneMatch((value) -> value.contains("sk-secret"));
		});
	}

	@Test
	void recordsFailuresWithTheirError() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry).run((context) -> {
			assertThatIllegalStateException().isThrownBy(() -> context.getBean(QuoteService.class).fail("ACME"));
			assertThat(registry).hasObservationWithNameEqualTo("agent.traceable")
				.that()
				.hasLowCardinalityKeyValue("outcome", "error")
				.hasError();
		});
	}

	@Test
	void observesReactiveResultsUntilTheyComplete() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry).run((context) -> {
			QuoteService quotes = context.getBean(QuoteService.class);
			Mono<String> later = quotes.quoteLater("ACME");
			assertThat(registry).doesNotHaveAnyObservation();
			StepVerifier.create(later).expectNext("ACME later").expectComplete().verify(Duration.ofSeconds(5));
			StepVerifier.create(quotes.ticks("ACME")).expectNextCount(3).expectComplete().verify(Duration.ofSeconds(5));
			StepVerifier.create(quotes.failLater()).expectError(IllegalStateException.class).verify(Duration.ofSeconds(5));
			assertThat(registry).hasNumberOfObservationsEqualTo(3)
				.hasObservationWithNameEqualTo("quotes.later")
				.that()
				.hasBeenStopped()
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasHighCardinalityKeyValue("args.symbol", "ACME");
			assertThat(registry).hasAnObservation((observation) -> observation.hasContextualNameEqualTo(
					"QuoteService#ticks").hasLowCardinalityKeyValue("outcome", "success"));
			assertThat(registry).hasAnObservation((observation) -> observation.hasContextualNameEqualTo(
					"QuoteService#failLater").hasLowCardinalityKeyValue("outcome", "error").hasError());
		});
	}

	@Test
	void classAnnotationObservesEveryPublicMethodAndCutsLongArguments() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		Recorded recorded = recordInto(registry);
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withBean("logins", LoginService.class)
			.run((context) -> {
				LoginService logins = context.getBean(LoginService.class);
				logins.login("x".repeat(300), "hunter2");
				logins.toString();
				assertThat(registry).hasNumberOfObservationsEqualTo(1)
					.hasObservationWithNameEqualTo("agent.traceable")
					.that()
					.hasHighCardinalityKeyValue("args.user", "x".repeat(253) + "...")
					.doesNotHaveHighCardinalityKeyValueWithKey("args.password");
				assertThat(recorded.values()).noneMatch((value) -> value.contains("hunter2"));
			});
	}

	@Test
	void misspeltSkipNameFailsStartup() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withBean("typo", TypoService.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("@Traceable skip names of bean 'typo' (" + TypoService.class.getName()
						+ ") that match no parameter: 'apikey' is no parameter of call[apiKey]"));
	}

	@Test
	void neverRecordsAToolParameterDeclaredSecret() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		Recorded recorded = recordInto(registry);
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withBean("gateway", Gateway.class)
			.withBean("billing", BillingTools.class, () -> new BillingTools(null))
			.run((context) -> {
				BillingTools billing = context.getBean(BillingTools.class);
				assertThat(billing.charge("acme", SECRET)).isEqualTo("charged acme");
				assertThat(billing.forward(AgentJson.mapper().readTree("{\"key\":\"" + SECRET + "\"}")))
					.isEqualTo("forwarded");
				assertThat(registry).hasObservationWithNameEqualTo("agent.traceable")
					.that()
					.hasContextualNameEqualTo("BillingTools#charge")
					.hasHighCardinalityKeyValue("args.account", "acme")
					.doesNotHaveHighCardinalityKeyValueWithKey("args.apiKey");
				assertThat(registry).hasAnObservation((observation) -> observation
					.hasContextualNameEqualTo("BillingTools#forward")
					.doesNotHaveHighCardinalityKeyValueWithKey("args.arguments"));
				assertThat(recorded.values()).isNotEmpty().noneMatch((value) -> value.contains(SECRET));
			});
	}

	@Test
	void neverRecordsAValueThatCameFromASecret() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		Recorded recorded = recordInto(registry);
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withBean("gateway", Gateway.class)
			.withBean("billing", BillingTools.class, () -> new BillingTools(null))
			.run((context) -> {
				BillingTools billing = new BillingTools(context.getBean(Gateway.class));
				ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(
						new ToolCall("c1", "pay", "{\"account\":\"acme\",\"apiKey\":\"<secret_ref:BILLING_KEY>\"}"),
						new ToolCall("c2", "pay", "{\"account\":\"fail\",\"apiKey\":\"<secret_ref:BILLING_KEY>\"}")),
						text("done"));
				Agent agent = Agent.builder()
					.name("billing")
					.model(model)
					.tools(MethodTools.from(billing))
					.secretResolver(SecretResolver.of(Map.of("BILLING_KEY", SECRET)))
					.build();

				agent.call("s1", "pay");

				assertThat(billing.paid).containsExactly("acme");
				assertThat(registry).hasAnObservation((observation) -> observation
					.hasContextualNameEqualTo("Gateway#send")
					.hasHighCardinalityKeyValue("args.authorization", "Bearer <secret_ref:BILLING_KEY>")
					.hasHighCardinalityKeyValue("args.account", "acme"));
				assertThat(registry).hasAnObservation((observation) -> observation
					.hasContextualNameEqualTo("Gateway#send")
					.hasHighCardinalityKeyValue("args.account", "fail")
					.hasLowCardinalityKeyValue("outcome", "error")
					.assertThatError()
					.hasMessage(IllegalStateException.class.getName()
							+ ": rejected Bearer <secret_ref:BILLING_KEY>"));
				assertThat(recorded.values()).isNotEmpty().noneMatch((value) -> value.contains(SECRET));
				assertThat(recorded.errors()).isNotEmpty().noneMatch((value) -> value.contains(SECRET));
				// outside a tool call nothing is active, and nothing is scrubbed
				context.getBean(Gateway.class).send("plain", "Bearer visible");
				assertThat(registry).hasAnObservation((observation) -> observation
					.hasHighCardinalityKeyValue("args.authorization", "Bearer visible"));
			});
	}

	@Test
	void withoutObservationRegistryNothingIsProxied() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(TraceableBeanPostProcessor.class);
			assertThat(AopUtils.isAopProxy(context.getBean(QuoteService.class))).isFalse();
		});
	}

	private static Recorded recordInto(ObservationRegistry registry) {
		Recorded recorded = new Recorded();
		registry.observationConfig().observationHandler(recorded);
		return recorded;
	}

	/** Every key value of every observation, to check that no secret got in anywhere. */
	static class Recorded implements ObservationHandler<Observation.Context> {

		private final List<String> values = new CopyOnWriteArrayList<>();

		private final List<String> errors = new CopyOnWriteArrayList<>();

		@Override
		public void onStop(Observation.Context context) {
			for (KeyValue keyValue : context.getAllKeyValues()) {
				this.values.add(keyValue.getKey() + "=" + keyValue.getValue());
			}
			for (Throwable error = context.getError(); error != null; error = error.getCause()) {
				this.errors.add(String.valueOf(error));
			}
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

		List<String> values() {
			return this.values;
		}

		List<String> errors() {
			return this.errors;
		}

	}

	public static class QuoteService {

		@Traceable(skip = "apiKey")
		public String quote(String symbol, String apiKey) {
			return symbol + ": 42";
		}

		@Traceable(name = "quotes.later")
		public Mono<String> quoteLater(String symbol) {
			return Mono.fromSupplier(() -> symbol + " later");
		}

		@Traceable
		public Flux<Integer> ticks(String symbol) {
			return Flux.just(1, 2, 3);
		}

		@Traceable
		public Mono<String> failLater() {
			return Mono.error(new IllegalStateException("no quote"));
		}

		@Traceable
		public String fail(String symbol) {
			throw new IllegalStateException("no quote for " + symbol);
		}

		public String plain() {
			return "plain";
		}

	}

	@Traceable(skip = "password")
	public static class LoginService {

		public String login(String user, String password) {
			return "welcome";
		}

		String internal() {
			return "not observed";
		}

	}

	@Traceable
	public static class BillingTools {

		final List<String> paid = new CopyOnWriteArrayList<>();

		private final @Nullable Gateway gateway;

		public BillingTools(@Nullable Gateway gateway) {
			this.gateway = gateway;
		}

		@Tool(name = "charge", secrets = "apiKey")
		public String charge(String account, String apiKey) {
			return "charged " + account;
		}

		@Tool(name = "forward", secrets = "key")
		public String forward(@RawArguments JsonNode arguments) {
			return "forwarded";
		}

		// not observed itself: the agent calls this instance, not the proxy
		@Tool(name = "pay", secrets = "apiKey")
		public String pay(String account, String apiKey) {
			Objects.requireNonNull(this.gateway).send(account, "Bearer " + apiKey);
			this.paid.add(account);
			return "paid";
		}

	}

	public static class Gateway {

		@Traceable
		public String send(String account, String authorization) {
			if (account.equals("fail")) {
				throw new IllegalStateException("rejected " + authorization);
			}
			return "sent";
		}

	}

	public static class TypoService {

		@Traceable(skip = "apikey")
		public String call(String apiKey) {
			return "ok";
		}

	}

}
