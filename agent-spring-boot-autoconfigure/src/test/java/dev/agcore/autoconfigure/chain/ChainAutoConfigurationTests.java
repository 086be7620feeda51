package dev.agcore.autoconfigure.chain;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.github.jknack.handlebars.Handlebars;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.chain.Chain;
import dev.agcore.chain.ChainRegistry;
import dev.agcore.chain.Chains;
import dev.agcore.chain.Runnable;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ChainAutoConfiguration}.
 */
class ChainAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMetricsAutoConfiguration.class, ChainAutoConfiguration.class));

	@Test
	void chainMethodsAndRunnableBeansJoinTheRegistry() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			ChainRegistry registry = context.getBean(ChainRegistry.class);
			assertThat(registry.names()).containsExactly("exclaim", "join", "shout", "spell", "summarize", "wordCount");
		});
	}

	@Test
	void aMethodThatReturnsAValueRunsOnAThreadThatMayBlock() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			Runnable<String, String> shout = context.getBean(ChainRegistry.class).get("shout");
			Mono<String> fromParallel = Mono.defer(() -> shout.invoke("hi")).subscribeOn(Schedulers.parallel());

			StepVerifier.create(fromParallel).expectNext("HI (blocking allowed: true)").expectComplete().verify(TIMEOUT);
		});
	}

	@Test
	void registeredChainsComposeAsTheSeedsPipe() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			ChainRegistry registry = context.getBean(ChainRegistry.class);
			Runnable<String, String> shout = registry.get("shout");
			Runnable<String, String> exclaim = registry.get("exclaim");
			Runnable<String, Integer> wordCount = registry.get("wordCount");

			StepVerifier.create(exclaim.pipe(shout).pipe(wordCount).invoke("hello there"))
				.expectNext(3)
				.expectComplete()
				.verify(TIMEOUT);
		});
	}

	@Test
	void aFluxMethodStreamsItsPiecesAndInvokeJoinsThem() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			Runnable<String, String> spell = context.getBean(ChainRegistry.class).get("spell");

			StepVerifier.create(spell.stream("abc")).expectNext("a", "b", "c").expectComplete().verify(TIMEOUT);
			StepVerifier.create(spell.invoke("abc")).expectNext("abc").expectComplete().verify(TIMEOUT);
		});
	}

	@Test
	void anInputOfAnotherTypeIsConvertedToTheParameterType() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			Runnable<Object, String> summarize = context.getBean(ChainRegistry.class).get("summarize");

			StepVerifier.create(summarize.invoke(Map.of("title", "Tea", "pages", 3)))
				.expectNext("Tea (3 pages)")
				.expectComplete()
				.verify(TIMEOUT);
			StepVerifier.create(summarize.invoke(42))
				.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalArgumentException.class)
					.hasMessageStartingWith("Chain 'summarize' takes a Book; its input, a Integer, cannot be converted"))
				.verify(TIMEOUT);
		});
	}

	@Test
	void aMethodsFailurePropagatesAsItRaisedIt() {
		this.contextRunner.withUserConfiguration(TextChains.class).run((context) -> {
			Runnable<String, String> exclaim = context.getBean(ChainRegistry.class).get("exclaim");

			StepVerifier.create(exclaim.invoke(""))
				.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalArgumentException.class)
					.hasMessage("nothing to exclaim"))
				.verify(TIMEOUT);
		});
	}

	@Test
	void chainRunsAreRecordedInTheMeterRegistry() {
		this.contextRunner.withUserConfiguration(TextChains.class)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				Runnable<String, String> shout = context.getBean(ChainRegistry.class).get("shout");
				StepVerifier.create(shout.invoke("a")).expectNextCount(1).expectComplete().verify(TIMEOUT);

				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.chain.calls")
					.tags("chain", "shout", "outcome", "success")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void aMethodWithTwoParametersFailsStartupNamingIt() {
		this.contextRunner.withBean("broken", TwoParameters.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure())).hasMessage(
					"Bean 'broken' declares an invalid chain: TwoParameters.join(String, String) takes 2 arguments "
							+ "instead of one, the input");
		});
	}

	@Test
	void aMethodThatReturnsNothingFailsStartupNamingIt() {
		this.contextRunner.withBean("broken", ReturnsNothing.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure())).hasMessage(
					"Bean 'broken' declares an invalid chain: ReturnsNothing.log(String) returns nothing instead of "
							+ "the output");
		});
	}

	@Test
	void aMethodThatIsNotPublicFailsStartupNamingIt() {
		this.contextRunner.withBean("broken", NotPublic.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessage("Bean 'broken' declares an invalid chain: NotPublic.hidden(String) is not public");
		});
	}

	@Test
	void aProxiedBeanIsCalledThroughItsProxy() {
		ProxyFactory factory = new ProxyFactory(new PoliteGreeter());
		factory.addInterface(Greeter.class);
		factory.addAdvice((MethodInterceptor) (invocation) -> invocation.proceed() + "!");
		this.contextRunner.withBean("greeter", Greeter.class, () -> (Greeter) factory.getProxy()).run((context) -> {
			Runnable<String, String> greet = context.getBean(ChainRegistry.class).get("greet");

			StepVerifier.create(greet.invoke("Ada")).expectNext("Hello Ada!").expectComplete().verify(TIMEOUT);
		});
	}

	@Test
	void aFluxOfAnythingButTextFailsStartupNamingIt() {
		this.contextRunner.withBean("broken", FluxOfNumbers.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure())).hasMessage(
					"Bean 'broken' declares an invalid chain: FluxOfNumbers.count(String) returns a Flux of Integer "
							+ "instead of a Flux<String> of text pieces; return a Mono to give one value");
		});
	}

	@Test
	void aNameTakenTwiceFailsStartupNamingBoth() {
		this.contextRunner.withUserConfiguration(TextChains.class).withBean("other", OtherShout.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageStartingWith("Duplicate chain name 'shout': declared by bean ")
				.hasMessageContaining("bean 'chainAutoConfigurationTests.TextChains' method TextChains.shout(String)")
				.hasMessageContaining("bean 'other' method OtherShout.loud(String)");
		});
	}

	@Test
	void theApplicationsRegistryWinsAndTheChainsJoinIt() {
		ChainRegistry own = new ChainRegistry();
		own.register("own", Chains.text());
		this.contextRunner.withUserConfiguration(TextChains.class)
			.withBean(ChainRegistry.class, () -> own)
			.run((context) -> {
				assertThat(context.getBean(ChainRegistry.class)).isSameAs(own);
				assertThat(own.names()).contains("own", "shout", "summarize");
			});
	}

	@Test
	void aChainNamedInTheApplicationsRegistryCannotBeDeclaredAgain() {
		ChainRegistry own = new ChainRegistry();
		own.register("shout", Chains.text());
		this.contextRunner.withUserConfiguration(TextChains.class)
			.withBean(ChainRegistry.class, () -> own)
			.run((context) -> assertThat(configurationFailure(context.getStartupFailure()))
				.hasMessageStartingWith("Duplicate chain name 'shout': declared by the ChainRegistry bean itself"));
	}

	@Test
	void chainsWorkWithoutTemplatesOnTheClassPath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Handlebars.class))
			.withUserConfiguration(TextChains.class)
			.run((context) -> {
				Runnable<String, String> shout = context.getBean(ChainRegistry.class).get("shout");
				StepVerifier.create(shout.invoke("a")).expectNextCount(1).expectComplete().verify(TIMEOUT);
			});
	}

	// the failure analyzer reports the configuration exception, whatever wraps it
	private static AgentConfigurationException configurationFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof AgentConfigurationException configuration) {
				return configuration;
			}
		}
		throw new AssertionError("No AgentConfigurationException in " + failure);
	}

	record Book(String title, int pages) {
	}

	@Configuration(proxyBeanMethods = false)
	static class TextChains {

		@Chain
		public String shout(String text) {
			return text.toUpperCase(Locale.ROOT) + (text.equals("hi")
					? " (blocking allowed: " + !Schedulers.isInNonBlockingThread() + ")" : "");
		}

		@Chain("exclaim")
		public Mono<String> addExclamation(String text) {
			if (text.isEmpty()) {
				throw new IllegalArgumentException("nothing to exclaim");
			}
			return Mono.just(text + " !");
		}

		@Chain
		public int wordCount(String text) {
			return text.split(" ").length;
		}

		@Chain
		public Flux<String> spell(String word) {
			return Flux.fromArray(word.split(""));
		}

		@Chain
		public String summarize(Book book) {
			return book.title() + " (" + book.pages() + " pages)";
		}

		@Bean
		Runnable<List<String>, String> join() {
			return Chains.lambda((List<String> parts) -> String.join(",", parts));
		}

	}

	static class TwoParameters {

		@Chain
		public String join(String a, String b) {
			return a + b;
		}

	}

	static class ReturnsNothing {

		@Chain
		public void log(String text) {
		}

	}

	static class NotPublic {

		@Chain
		String hidden(String text) {
			return text;
		}

	}

	interface Greeter {

		String greet(String name);

	}

	static class PoliteGreeter implements Greeter {

		@Chain
		@Override
		public String greet(String name) {
			return "Hello " + name;
		}

	}

	static class FluxOfNumbers {

		@Chain
		public Flux<Integer> count(String text) {
			return Flux.range(0, text.length());
		}

	}

	static class OtherShout {

		@Chain("shout")
		public String loud(String text) {
			return text;
		}

	}

}
