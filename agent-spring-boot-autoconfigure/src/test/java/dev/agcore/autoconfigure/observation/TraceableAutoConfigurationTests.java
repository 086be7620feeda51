package dev.agcore.autoconfigure.observation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.observation.Traceable;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TraceableAutoConfiguration}.
 */
class TraceableAutoConfigurationTests {

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

		@Override
		public void onStop(Observation.Context context) {
			for (KeyValue keyValue : context.getAllKeyValues()) {
				this.values.add(keyValue.getKey() + "=" + keyValue.getValue());
			}
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

		List<String> values() {
			return this.values;
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

	public static class TypoService {

		@Traceable(skip = "apikey")
		public String call(String apiKey) {
			return "ok";
		}

	}

}
