package dev.agcore.runtime;

import reactor.core.publisher.Mono;

/**
 * The model calls and tool runs of one turn, between the before-agent hooks and the
 * storing of the turn, which {@link DefaultAgent} does the same for every runner.
 * Completes when the turn is finished (or paused for a decision).
 */
@FunctionalInterface
interface TurnRunner {

	Mono<Void> run(Turn turn, TurnListener listener);

}
