package dev.agcore.chain;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import dev.agcore.prompt.PromptTemplate;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Runnable}: composition, streaming, batches and where steps run.
 */
class RunnableTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final Runnable<String, Integer> length = Chains.reactive((String text) -> Mono.just(text.length()));

	private final Runnable<Integer, String> stars = Chains.reactive((Integer count) -> Mono.just("*".repeat(count)));

	@Test
	void pipedStepsPassTheirTypedOutputsOn() {
		Runnable<String, String> chain = this.length.pipe(this.stars).andThen(Chains.reactive((String s) -> Mono.just("[" + s + "]")));

		StepVerifier.create(chain.invoke("abc")).expectNext("[***]").expectComplete().verify(TIMEOUT);
		assertThat(chain.name()).isEqualTo("reactive | reactive | reactive");
	}

	@Test
	void aNextStepMayTakeASupertypeOfTheOutput() {
		Runnable<Object, String> describe = Chains.reactive((Object value) -> Mono.just("a " + value.getClass().getSimpleName()));

		Runnable<String, String> chain = this.length.pipe(describe);

		StepVerifier.create(chain.invoke("abc")).expectNext("a Integer").expectComplete().verify(TIMEOUT);
	}

	@Test
	void aLambdaIsARunnableNamedRunnable() {
		Runnable<String, String> upper = (text) -> Mono.just(text.toUpperCase(Locale.ROOT));

		StepVerifier.create(upper.pipe(this.length).invoke("abc")).expectNext(3).expectComplete().verify(TIMEOUT);
		assertThat(upper.name()).isEqualTo("runnable");
		assertThat(upper.named("upper").name()).isEqualTo("upper");
		assertThat(upper.named("upper").named("shout").name()).isEqualTo("shout");
	}

	@Test
	void aStepThatCompletesEmptyFailsTheChainNamingIt() {
		Runnable<String, String> nothing = (text) -> Mono.empty();
		Runnable<String, Integer> chain = nothing.named("lookup").pipe(this.length);

		StepVerifier.create(chain.invoke("abc"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ChainException.class)
				.hasMessage("Chain step 'lookup' completed without a value"))
			.verify(TIMEOUT);
	}

	@Test
	void aLambdaThatReturnsNullFailsUnderTheNameItWasGiven() {
		Runnable<String, String> none = Chains.<String, String>lambda((text) -> null).named("find-user");

		StepVerifier.create(none.invoke("ada"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ChainException.class)
				.hasMessage("Chain step 'find-user' completed without a value"))
			.verify(TIMEOUT);
	}

	@Test
	void aStepsErrorPropagatesAsItWasRaised() {
		IllegalStateException failure = new IllegalStateException("service down");
		Runnable<Integer, String> failing = (count) -> Mono.error(failure);

		StepVerifier.create(this.length.pipe(failing).pipe(this.length).invoke("abc"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(failure))
			.verify(TIMEOUT);
	}

	@Test
	void streamingAPipeInvokesTheEarlierStepsAndStreamsTheModelsTextDeltas() {
		ScriptedChatModel model = ScriptedChatModel
			.answering((request) -> text("Hello " + request.messages().get(0).text() + "!"));
		Runnable<String, String> chain = Chains.prompt(PromptTemplate.compile("dear {{name}}"), "name")
			.pipe(Chains.model(model));

		StepVerifier.create(chain.stream("Ada")).expectNext("Hello ", "dear ", "Ada!").expectComplete().verify(TIMEOUT);
		StepVerifier.create(chain.invoke("Ada")).expectNext("Hello dear Ada!").expectComplete().verify(TIMEOUT);
	}

	@Test
	void streamingAPipeThatEndsInAStepThatDoesNotStreamEmitsItsOneValue() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("  three words here  "));
		Runnable<String, String> chain = Chains.model(model).pipe(Chains.text());

		StepVerifier.create(chain.stream("hi")).expectNext("three words here").expectComplete().verify(TIMEOUT);
	}

	@Test
	void aBatchGivesTheOutputsInTheOrderOfTheInputs() {
		// the first input takes longest, so the outputs arrive in reverse
		Runnable<Integer, Integer> slow = (n) -> Mono.just(n * 10).delayElement(Duration.ofMillis(60 - n * 15L));

		StepVerifier.create(slow.batch(List.of(1, 2, 3), 3))
			.expectNext(List.of(10, 20, 30))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void aBatchRunsAtMostMaxConcurrencyInputsAtOnce() {
		InFlight inFlight = new InFlight();
		Runnable<Integer, Integer> step = inFlight.step();
		List<Integer> inputs = IntStream.range(0, 12).boxed().toList();

		StepVerifier.create(step.batch(inputs, 3)).expectNext(inputs).expectComplete().verify(TIMEOUT);
		assertThat(inFlight.max).hasValue(3);

		InFlight byDefault = new InFlight();
		StepVerifier.create(byDefault.step().batch(inputs)).expectNext(inputs).expectComplete().verify(TIMEOUT);
		assertThat(byDefault.max).hasValue(Runnable.DEFAULT_MAX_CONCURRENCY);
	}

	@Test
	void aBatchFailsWithTheFirstFailure() {
		IllegalArgumentException failure = new IllegalArgumentException("bad input 2");
		Runnable<Integer, Integer> step = (n) -> (n == 2) ? Mono.error(failure) : Mono.just(n);

		StepVerifier.create(step.batch(List.of(1, 2, 3)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(failure))
			.verify(TIMEOUT);
	}

	@Test
	void aBatchFailsWhenARunCompletesEmptyRatherThanGiveFewerOutputs() {
		Runnable<Integer, Integer> step = (n) -> (n == 2) ? Mono.empty() : Mono.just(n);

		StepVerifier.create(step.named("odd").batch(List.of(1, 2, 3)))
			.expectErrorMessage("Chain step 'odd' completed without a value")
			.verify(TIMEOUT);
	}

	@Test
	void aBatchNeedsAConcurrencyOfAtLeastOne() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.length.batch(List.of("a"), 0))
			.withMessage("'maxConcurrency' must be at least 1, was 0");
	}

	@Test
	void aLambdaNeverRunsOnANonBlockingThread() {
		List<Boolean> nonBlocking = new CopyOnWriteArrayList<>();
		List<String> threads = new CopyOnWriteArrayList<>();
		Runnable<String, String> record = Chains.lambda((String text) -> {
			nonBlocking.add(Schedulers.isInNonBlockingThread());
			threads.add(Thread.currentThread().getName());
			return text;
		});
		// the input arrives on a parallel (non-blocking) thread
		Runnable<String, String> chain = Chains.reactive((String text) -> Mono.just(text).publishOn(Schedulers.parallel()))
			.pipe(record);

		StepVerifier.create(chain.invoke("a")).expectNext("a").expectComplete().verify(TIMEOUT);
		StepVerifier.create(Mono.defer(() -> record.invoke("b")).subscribeOn(Schedulers.parallel()))
			.expectNext("b")
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(record.batch(List.of("c", "d"))).expectNext(List.of("c", "d")).expectComplete().verify(TIMEOUT);

		assertThat(nonBlocking).hasSize(4).containsOnly(false);
		assertThat(threads).allSatisfy((thread) -> assertThat(thread).startsWith("boundedElastic"));
	}

	@Test
	void aBlankNameIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.length.named(" "))
			.withMessage("A chain's name must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> this.length.pipe(this.stars).named(""))
			.withMessage("A chain's name must not be blank");
	}

	/** A step that counts how many of its runs are going at once. */
	private static final class InFlight {

		private final AtomicInteger current = new AtomicInteger();

		private final AtomicInteger max = new AtomicInteger();

		Runnable<Integer, Integer> step() {
			return (n) -> Mono.fromCallable(() -> {
				this.max.accumulateAndGet(this.current.incrementAndGet(), Math::max);
				return n;
			}).delayElement(Duration.ofMillis(20)).doOnNext((value) -> this.current.decrementAndGet());
		}

	}

}
