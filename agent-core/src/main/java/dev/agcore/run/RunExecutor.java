package dev.agcore.run;

import java.util.List;

import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * Executes the runs of one kind ({@code agent}, {@code workflow}) for a
 * {@link RunWorker}. Its emissions become the run's stored events, in order; the one with
 * an outcome ends the run. Cancelling the subscription (the run was cancelled, its
 * deadline passed, its worker stops) must stop the work: model calls, tools, tasks.
 *
 * @since 0.1.0
 */
public interface RunExecutor {

	/**
	 * The kind of runs this executes, as in {@link RunRequest#kind()}.
	 * @return the kind
	 */
	String kind();

	/**
	 * The names of the agents or workflows this can execute, to refuse a run for an
	 * unknown one when it is submitted.
	 * @return the names
	 */
	List<String> targets();

	/**
	 * Check the input of a run before it is queued, so that what the target cannot take is
	 * refused to the caller at once instead of failing the run later. The default accepts
	 * any input.
	 * @param target the agent or workflow, one of {@link #targets()}
	 * @param input the run's input
	 * @throws IllegalArgumentException with a message for the caller when the input does not
	 * fit
	 */
	default void validate(String target, JsonNode input) {
	}

	/**
	 * Execute a run, or continue it: a run claimed again after its worker died, or resumed
	 * after an interrupt ({@link Run#resume()} set), starts here again, and the executor
	 * skips what it finished before (a workflow's checkpointed tasks).
	 * @param run the run, {@link RunStatus#RUNNING}
	 * @return its events, the last with an outcome; completing without one completes the
	 * run with no result, an error fails it
	 */
	Flux<RunEmission> execute(Run run);

}
