package dev.agcore.chain;

import java.time.Duration;
import java.util.Locale;

import dev.agcore.observation.MicrometerAgentMetrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ChainRegistry} and the metrics of the chains it holds.
 */
class ChainRegistryTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ChainRegistry registry = new ChainRegistry(new MicrometerAgentMetrics(this.meters));

	private final Runnable<String, String> upper = Chains.reactive((String text) -> Mono.just(text.toUpperCase(Locale.ROOT)));

	@Test
	void aRegisteredChainIsFoundByItsNameAndNamedByIt() {
		this.registry.register("shout", this.upper);

		Runnable<String, String> found = this.registry.get("shout");

		StepVerifier.create(found.invoke("hi")).expectNext("HI").expectComplete().verify(TIMEOUT);
		assertThat(found.name()).isEqualTo("shout");
		assertThat(this.registry.<String, String>find("shout")).containsSame(found);
		assertThat(this.registry.find("whisper")).isEmpty();
	}

	@Test
	void anUnknownNameFailsListingTheNames() {
		this.registry.register("b", this.upper);
		this.registry.register("a", this.upper);

		assertThat(this.registry.names()).containsExactly("a", "b");
		assertThatExceptionOfType(ChainException.class).isThrownBy(() -> this.registry.get("c"))
			.withMessage("No chain named 'c'; chains: [a, b]");
	}

	@Test
	void aNameIsRegisteredOnce() {
		this.registry.register("shout", this.upper);

		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.register("shout", this.upper))
			.withMessage("A chain named 'shout' is already registered");
	}

	@Test
	void eachRunIsRecordedWithItsOutcome() {
		Runnable<String, String> shout = this.registry.register("shout", this.upper);
		Runnable<String, String> failing = this.registry.register("failing",
				(text) -> Mono.error(new IllegalStateException("down")));

		StepVerifier.create(shout.invoke("a")).expectNext("A").expectComplete().verify(TIMEOUT);
		StepVerifier.create(shout.stream("b")).expectNext("B").expectComplete().verify(TIMEOUT);
		StepVerifier.create(failing.invoke("c")).expectError(IllegalStateException.class).verify(TIMEOUT);

		assertThat(timer("shout", "success").count()).isEqualTo(2);
		assertThat(timer("failing", "error").count()).isEqualTo(1);
		assertThat(this.meters.find("agent.chain.calls").tags("chain", "shout", "outcome", "error").timer()).isNull();
	}

	@Test
	void aCancelledStreamIsRecordedOnce() {
		Runnable<String, String> endless = this.registry.register("endless",
				Chains.streaming((String text) -> Flux.interval(Duration.ofMillis(5)).map(String::valueOf)));

		StepVerifier.create(endless.stream("x")).expectNext("0", "1").thenCancel().verify(TIMEOUT);

		assertThat(timer("endless", "cancelled").count()).isEqualTo(1);
		assertThat(this.meters.find("agent.chain.calls").tags("outcome", "success").timer()).isNull();
	}

	@Test
	void aComposedChainIsRecordedAsAWholeUnderItsName() {
		this.registry.register("shout-twice", this.upper.pipe(this.upper));

		StepVerifier.create(this.registry.<String, String>get("shout-twice").invoke("a"))
			.expectNext("A")
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.meters.find("agent.chain.calls").timers()).singleElement()
			.satisfies((timer) -> assertThat(timer.getId().getTag("chain")).isEqualTo("shout-twice"));
	}

	private Timer timer(String chain, String outcome) {
		return this.meters.get("agent.chain.calls").tags("chain", chain, "outcome", outcome).timer();
	}

}
