package dev.agcore.workflow;

import java.util.List;
import java.util.Objects;

import dev.agcore.run.Run;
import dev.agcore.run.RunCaller;
import dev.agcore.run.RunEmission;
import dev.agcore.run.RunExecutor;
import dev.agcore.run.RunOutcome;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Executes background runs of kind {@value #KIND}: the run's target is the workflow, its
 * input the workflow's input, and its id the key of the checkpoint, so a run claimed again
 * after its worker died, or resumed after an interrupt, does not run its finished tasks
 * again. The human's answer of a resumed run ({@link Run#resume()}) becomes the answer to
 * the interrupt the run waits for, kept once in the checkpoint store. The workflow's
 * events become the run's events; {@code interrupted} and {@code completed} end it.
 *
 * @since 0.1.0
 */
public final class WorkflowRunExecutor implements RunExecutor {

	/** The kind of runs this executes. */
	public static final String KIND = "workflow";

	private final WorkflowEngine engine;

	private final boolean secured;

	/**
	 * Create an executor whose workflows' agent turns run for an anonymous caller.
	 * @param engine the workflow engine
	 */
	public WorkflowRunExecutor(WorkflowEngine engine) {
		this(engine, false);
	}

	/**
	 * Create an executor.
	 * @param engine the workflow engine
	 * @param secured whether the application authenticates its callers: then the agent
	 * turns of a workflow run for the principal that submitted the run ({@link RunCaller})
	 */
	public WorkflowRunExecutor(WorkflowEngine engine, boolean secured) {
		this.engine = Objects.requireNonNull(engine, "'engine' must not be null");
		this.secured = secured;
	}

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<String> targets() {
		return this.engine.registry().names();
	}

	/** The workflow's own {@link Workflow#inputCheck() input check}. */
	@Override
	public void validate(String target, JsonNode input) {
		this.engine.registry().find(target).ifPresent((workflow) -> {
			try {
				workflow.inputCheck().check(input);
			}
			catch (WorkflowInputException ex) {
				throw new IllegalArgumentException(ex.getMessage(), ex);
			}
		});
	}

	@Override
	public Flux<RunEmission> execute(Run run) {
		Mono<Boolean> answered = (run.resume() != null) ? this.engine.answer(run.id(), run.resume())
				: Mono.just(false);
		return answered
			.thenMany(Flux.defer(() -> this.engine.stream(run.target(), run.id(), run.request().input(), List.of())))
			.map(WorkflowRunExecutor::emission)
			.contextWrite(RunCaller.context(run, this.secured));
	}

	private static RunEmission emission(WorkflowEvent event) {
		return switch (event.type()) {
			case WorkflowEvent.COMPLETED ->
				RunEmission.end(event.type(), event.data(), RunOutcome.completed(event.data().path("output")));
			case WorkflowEvent.INTERRUPTED ->
				RunEmission.end(event.type(), event.data(), RunOutcome.interrupted(event.data().path("payload")));
			default -> RunEmission.event(event.type(), event.data());
		};
	}

}
