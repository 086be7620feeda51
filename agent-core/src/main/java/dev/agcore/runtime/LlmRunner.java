package dev.agcore.runtime;

import java.util.List;
import java.util.function.UnaryOperator;

import reactor.core.publisher.Mono;

/** Plain chat: one model call with the conversation and no tools. */
final class LlmRunner implements TurnRunner {

	private final ModelStep step;

	LlmRunner(ModelStep step) {
		this.step = step;
	}

	@Override
	public Mono<Void> run(Turn turn, TurnListener listener) {
		return this.step
			.call(turn, List.of(), FinalAnswers.noToolOptions(turn), turn.setup().instructions(),
					UnaryOperator.identity(), listener)
			.flatMap((response) -> FinalAnswers.accept(turn, response));
	}

}
