package dev.agcore.plan.task;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import dev.agcore.memory.DerivedIds;
import dev.agcore.message.Message;
import dev.agcore.model.Usage;
import dev.agcore.plan.Plan;
import dev.agcore.plan.PlanFailedException;
import dev.agcore.plan.Step;
import dev.agcore.plan.StepStatus;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentEvent.PlanUpdate;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ToolExecution;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * One run of a plan by a {@link TaskAgent}: the steps whose prerequisites completed run
 * in waves of at most the agent's parallelism, each wave after the one before; a failure
 * skips the rest or replans. Holds the plan as it changes; the plan is only ever replaced
 * by a pure function of itself, so steps of one wave may update it concurrently.
 */
final class PlanExecution {

	private final TaskAgent agent;

	private final AgentRequest request;

	private final AtomicReference<Plan> plan;

	private final AtomicReference<Usage> usage = new AtomicReference<>(Usage.EMPTY);

	private final AtomicReference<@Nullable AgentResult> interrupted = new AtomicReference<>();

	private final List<StepTurn> turns = Collections.synchronizedList(new ArrayList<>());

	private final AtomicInteger replans = new AtomicInteger();

	private final AtomicInteger derivedSessions = new AtomicInteger();

	private volatile @Nullable String replanFailure;

	PlanExecution(TaskAgent agent, AgentRequest request, Plan plan) {
		this.agent = agent;
		this.request = request;
		this.plan = new AtomicReference<>(plan);
	}

	/** Count the tokens of the planning calls into the plan's usage. */
	PlanExecution withUsage(Usage planning) {
		this.usage.accumulateAndGet(planning, Usage::plus);
		return this;
	}

	/** The plan as it is now; as it ended once {@link #run()} completed. */
	Plan plan() {
		return this.plan.get();
	}

	/**
	 * Run the plan.
	 * @return the events, ending with exactly one completed, interrupt or error event
	 */
	Flux<AgentEvent> run() {
		return Flux.defer(this::nextWave);
	}

	private Flux<AgentEvent> nextWave() {
		Plan current = this.plan.get();
		if (this.interrupted.get() != null) {
			return finish("the plan stopped at a step waiting for approval");
		}
		if (current.steps().stream().anyMatch((step) -> step.status() == StepStatus.FAILED)) {
			return afterFailure(current);
		}
		List<Step> ready = current.ready();
		if (ready.isEmpty()) {
			return finish("a step it depends on did not complete");
		}
		List<Step> wave = ready.subList(0, Math.min(this.agent.parallelism, ready.size()));
		boolean alone = wave.size() == 1;
		List<Flux<AgentEvent>> steps = wave.stream().map((step) -> runStep(step.index(), alone)).toList();
		return Flux.merge(steps).concatWith(Flux.defer(this::nextWave));
	}

	private Flux<AgentEvent> runStep(int index, boolean alone) {
		return Flux.defer(() -> {
			Plan started = update((plan) -> plan.withStep(plan.step(index).start()));
			// steps side by side get sessions of their own: one conversation takes one turn at a time
			String sessionId = alone ? this.request.sessionId()
					: DerivedIds.derive(this.request.sessionId(),
							"#plan-" + started.id() + "-" + this.derivedSessions.incrementAndGet(),
							AgentRequest.MAX_SESSION_ID_LENGTH, "plan-");
			AgentRequest turn = new AgentRequest(sessionId, PlanPrompts.step(started, started.step(index)),
					this.request.state(), this.request.userId(), this.request.options(), List.of(),
					this.request.instructions(), this.request.locale());
			return Flux.<AgentEvent>just(new PlanUpdate(PlanUpdate.STEP_STARTED, started, index))
				.concatWith(this.agent.delegate()
					.stream(turn)
					.onErrorResume((ex) -> Flux.just(
							new AgentEvent.Failed(ex.getClass().getSimpleName(), String.valueOf(ex.getMessage()), ex)))
					.concatMap((event) -> onStepEvent(index, alone, event)));
		});
	}

	private Flux<AgentEvent> onStepEvent(int index, boolean alone, AgentEvent event) {
		if (event instanceof AgentEvent.Completed completed) {
			AgentResult result = completed.result();
			if (!result.isCompleted()) {
				return failStep(index,
						"The step's turn ended " + result.status().name().toLowerCase(java.util.Locale.ROOT)
								+ " without an answer");
			}
			this.turns.add(new StepTurn(result, alone));
			Plan plan = update((current) -> current.withStep(current.step(index).complete(result.output())));
			this.agent.metrics.planStep(this.agent.name(), "completed");
			return Flux.just(new PlanUpdate(PlanUpdate.STEP_COMPLETED, plan, index));
		}
		if (event instanceof AgentEvent.Interrupted paused) {
			this.interrupted.compareAndSet(null, paused.result());
			return failStep(index, "The step paused for approval of "
					+ paused.result().pendingToolCalls().stream().map((call) -> call.name()).toList()
					+ " in session '" + paused.result().sessionId() + "'; a plan does not wait for approvals");
		}
		if (event instanceof AgentEvent.Failed failed) {
			return failStep(index, failed.message());
		}
		if (event instanceof AgentEvent.UsageReported reported) {
			this.usage.accumulateAndGet(reported.usage(), Usage::plus);
			return Flux.just(event);
		}
		if (!alone && (event instanceof AgentEvent.TextDelta || event instanceof AgentEvent.ReasoningDelta
				|| event instanceof AgentEvent.TextReset)) {
			// the text of steps side by side would interleave: their results come with step_completed
			return Flux.empty();
		}
		return Flux.just(event);
	}

	private Flux<AgentEvent> failStep(int index, String error) {
		Plan plan = update((current) -> current.withStep(current.step(index).fail(error)));
		this.agent.metrics.planStep(this.agent.name(), "failed");
		return Flux.just(new PlanUpdate(PlanUpdate.STEP_FAILED, plan, index));
	}

	private Flux<AgentEvent> afterFailure(Plan current) {
		int kept = (int) current.steps().stream().filter((step) -> step.status() == StepStatus.COMPLETED).count();
		int room = this.agent.maxSteps - kept;
		if (!this.agent.replan || this.replans.get() >= this.agent.maxReplans || room < 1) {
			return finish("an earlier step failed");
		}
		this.replans.incrementAndGet();
		List<AgentEvent> planningUsage = Collections.synchronizedList(new ArrayList<>());
		return skipPending("the plan is replanned").concatWith(Flux.defer(() -> this.agent
			.replanned(this.plan.get(), room, (used) -> planningUsage.add(new AgentEvent.UsageReported(used)))
			.flatMapMany((answer) -> {
				this.usage.accumulateAndGet(answer.usage(), Usage::plus);
				Plan replanned = update((plan) -> plan.replanned(answer.plan()));
				return Flux.fromIterable(List.copyOf(planningUsage))
					.concatWith(Flux.just(new PlanUpdate(PlanUpdate.PLAN_REPLANNED, replanned, null)))
					.concatWith(Flux.defer(this::nextWave));
			})
			.onErrorResume((ex) -> {
				this.replanFailure = "Replanning failed: " + ex.getMessage();
				return Flux.fromIterable(List.copyOf(planningUsage)).concatWith(Flux.defer(this::outcome));
			})));
	}

	/** Skip what did not run, then end. */
	private Flux<AgentEvent> finish(String skipReason) {
		return skipPending(skipReason).concatWith(Flux.defer(this::outcome));
	}

	private Flux<AgentEvent> skipPending(String reason) {
		return Flux.defer(() -> Flux.fromIterable(this.plan.get().steps())
			.filter((step) -> step.status() == StepStatus.PENDING)
			.map((step) -> {
				Plan plan = update((current) -> current.withStep(current.step(step.index()).skip(reason)));
				this.agent.metrics.planStep(this.agent.name(), "skipped");
				return new PlanUpdate(PlanUpdate.STEP_SKIPPED, plan, step.index());
			}));
	}

	private Flux<AgentEvent> outcome() {
		Plan plan = this.plan.get();
		AgentResult paused = this.interrupted.get();
		if (paused != null) {
			this.agent.metrics.plan(this.agent.name(), "interrupted");
			return Flux.just(new AgentEvent.Interrupted(paused));
		}
		if (plan.isSucceeded()) {
			this.agent.metrics.plan(this.agent.name(), "completed");
			return Flux.just(new AgentEvent.Completed(result(plan)));
		}
		this.agent.metrics.plan(this.agent.name(), "failed");
		String summary = PlanPrompts.summary(plan) + ((this.replanFailure != null) ? ". " + this.replanFailure : "");
		return Flux.just(new AgentEvent.Failed(PlanFailedException.class.getSimpleName(), summary,
				new PlanFailedException(summary, plan)));
	}

	/** The plan's turn as one result: the last step's answer, everything the steps did. */
	private AgentResult result(Plan plan) {
		String output = plan.step(plan.steps().size() - 1).result();
		List<ToolExecution> tools = new ArrayList<>();
		List<Message> messages = new ArrayList<>();
		BigDecimal cost = null;
		synchronized (this.turns) {
			for (StepTurn turn : this.turns) {
				tools.addAll(turn.result().toolExecutions());
				if (turn.inSession()) {
					messages.addAll(turn.result().messages());
				}
				if (turn.result().cost() != null) {
					cost = (cost != null) ? cost.add(turn.result().cost()) : turn.result().cost();
				}
			}
		}
		return new AgentResult(this.request.sessionId(), (output != null) ? output : "", AgentResult.Status.COMPLETED,
				this.usage.get(), tools, messages, List.of(), cost);
	}

	private Plan update(UnaryOperator<Plan> change) {
		return this.plan.updateAndGet(change);
	}

	/** A completed step's turn, and whether it ran in the request's own session. */
	private record StepTurn(AgentResult result, boolean inSession) {
	}

}
