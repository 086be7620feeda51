package dev.agcore.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A plan: the steps that reach a goal. Immutable; {@link #withStep} returns the plan with
 * one step changed.
 * <p>
 * A plan whose steps declare no {@link Step#dependsOn() dependencies} runs in order, each
 * step after the one before. Once a step declares some, the plan is a graph: each step
 * waits only for the steps it names, so steps whose dependencies are met may run side by
 * side.
 *
 * @param id the plan's id, a random UUID for a parsed plan
 * @param goal what the plan is for
 * @param steps the steps, indexed from 0 in order; dependencies name earlier steps only,
 * so a plan has no cycles
 */
public record Plan(String id, String goal, List<Step> steps) {

	public Plan {
		Objects.requireNonNull(id, "'id' must not be null");
		Objects.requireNonNull(goal, "'goal' must not be null");
		steps = List.copyOf(steps);
		if (steps.isEmpty()) {
			throw new IllegalArgumentException("A plan needs at least one step");
		}
		for (int i = 0; i < steps.size(); i++) {
			Step step = steps.get(i);
			if (step.index() != i) {
				throw new IllegalArgumentException("Step " + i + " has the index " + step.index());
			}
			for (int dependency : step.dependsOn()) {
				if (dependency < 0 || dependency >= i) {
					throw new IllegalArgumentException(
							"Step " + i + " depends on step " + dependency + ", which does not come before it");
				}
			}
		}
	}

	/**
	 * Create a plan with a random id, all its steps pending.
	 * @param goal what the plan is for
	 * @param descriptions what each step does, in order
	 * @return the plan
	 */
	public static Plan of(String goal, List<String> descriptions) {
		List<Step> steps = new ArrayList<>(descriptions.size());
		for (String description : descriptions) {
			steps.add(Step.of(steps.size(), description));
		}
		return new Plan(newId(), goal, steps);
	}

	/**
	 * Return a new random plan id.
	 * @return the id
	 */
	public static String newId() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Return the step at an index.
	 * @param index the index, from 0
	 * @return the step
	 */
	public Step step(int index) {
		return this.steps.get(index);
	}

	/**
	 * Return this plan with a step replaced (the one with the same index).
	 * @param step the new step
	 * @return the plan
	 */
	public Plan withStep(Step step) {
		List<Step> steps = new ArrayList<>(this.steps);
		steps.set(step.index(), step);
		return new Plan(this.id, this.goal, steps);
	}

	/**
	 * Return whether any step declares dependencies, which makes the plan a graph rather
	 * than a sequence.
	 * @return whether the plan is a graph
	 */
	public boolean isGraph() {
		return this.steps.stream().anyMatch((step) -> !step.dependsOn().isEmpty());
	}

	/**
	 * Return the dependencies a step waits for: those it declares in a graph, the step
	 * before it in a sequence.
	 * @param index the step's index
	 * @return the indexes of the steps it waits for
	 */
	public List<Integer> prerequisites(int index) {
		if (isGraph()) {
			return step(index).dependsOn();
		}
		return (index == 0) ? List.of() : List.of(index - 1);
	}

	/**
	 * Return the pending steps that may start now: those whose prerequisites all completed.
	 * @return the steps, in index order
	 */
	public List<Step> ready() {
		List<Step> ready = new ArrayList<>();
		for (Step step : this.steps) {
			if (step.status() == StepStatus.PENDING && prerequisites(step.index()).stream()
				.allMatch((dependency) -> step(dependency).status() == StepStatus.COMPLETED)) {
				ready.add(step);
			}
		}
		return ready;
	}

	/**
	 * Return whether every step has ended.
	 * @return whether the plan is finished
	 */
	public boolean isFinished() {
		return this.steps.stream().allMatch((step) -> step.status().isTerminal());
	}

	/**
	 * Return whether the plan reached its goal: its last step completed and none of its
	 * steps is running or pending.
	 * @return whether the plan succeeded
	 */
	public boolean isSucceeded() {
		return isFinished() && this.steps.get(this.steps.size() - 1).status() == StepStatus.COMPLETED;
	}

	/**
	 * Return this plan replanned: its completed steps, in order and without their
	 * dependencies (they are done), followed by the steps of a new plan of the remaining
	 * work, whose dependencies are renumbered to match. The id and goal stay.
	 * @param remaining the plan of the remaining work, every step pending
	 * @return the plan
	 */
	public Plan replanned(Plan remaining) {
		List<Step> steps = new ArrayList<>();
		for (Step step : this.steps) {
			if (step.status() == StepStatus.COMPLETED) {
				steps.add(step.renumbered(steps.size(), List.of()));
			}
		}
		int offset = steps.size();
		for (Step step : remaining.steps) {
			steps.add(Step.of(offset + step.index(), step.description(),
					step.dependsOn().stream().map((dependency) -> dependency + offset).toList()));
		}
		return new Plan(this.id, this.goal, steps);
	}

}
