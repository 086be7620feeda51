package dev.agcore.context;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MdcKeys#with}: the entry a background run adds for its turns.
 */
class MdcKeysTests {

	private final Scheduler single = Schedulers.newSingle("runs");

	@AfterEach
	void dispose() {
		this.single.dispose();
		MDC.clear();
	}

	@Test
	void entryIsInTheMdcWhileSubscribingAndInTheReactorContextThenGone() {
		Flux<String> source = Flux.defer(() -> Mono.deferContextual((view) -> Mono
			.just(MDC.get(MdcKeys.RUN) + " " + view.<Map<String, String>>get(MdcKeys.CONTEXT_KEY).get(MdcKeys.RUN)))
			.flux());

		String seen = MdcKeys.with(MdcKeys.RUN, "run-1", source).subscribeOn(this.single).blockLast(Duration.ofSeconds(5));

		assertThat(seen).isEqualTo("run-1 run-1");
		assertThat(Mono.fromCallable(() -> String.valueOf(MDC.get(MdcKeys.RUN)))
			.subscribeOn(this.single)
			.block(Duration.ofSeconds(5))).isEqualTo("null");
	}

	@Test
	void aPreviousValueIsPutBack() {
		MDC.put(MdcKeys.RUN, "outer");

		MdcKeys.with(MdcKeys.RUN, "inner", Flux.just(1)).blockLast(Duration.ofSeconds(5));

		assertThat(MDC.get(MdcKeys.RUN)).isEqualTo("outer");
	}

}
