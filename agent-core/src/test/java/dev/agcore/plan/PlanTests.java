package dev.agcore.plan;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link Plan}, {@link Step} and {@link StepStatus}.
 */
class PlanTests {

	@Test
	void stepsMoveOneWay() {
		Step step = Step.of(0, "a");
		Step running = step.start();
		Step done = running.complete("ok");

		assertThat(done.status()).isEqualTo(StepStatus.COMPLETED);
		assertThat(done.result()).isEqualTo("ok");
		assertThat(done.status().isTerminal()).isTrue();
		assertThat(running.status().isTerminal()).isFalse();
		assertThatIllegalStateException().isThrownBy(done::start).withMessageContaining("from COMPLETED to RUNNING");
		assertThatIllegalStateException().isThrownBy(() -> step.complete("x"));
		assertThatIllegalStateException().isThrownBy(() -> running.fail("x").skip("y"));
		assertThat(step.skip("earlier step failed").status()).isEqualTo(StepStatus.SKIPPED);
		assertThat(running.skip("cancelled").status()).isEqualTo(StepStatus.SKIPPED);
	}

	@Test
	void withStepChangesOneStepAndLeavesThePlanAsItWas() {
		Plan plan = Plan.of("g", List.of("a", "b"));
		Plan changed = plan.withStep(plan.step(0).start());

		assertThat(plan.step(0).status()).isEqualTo(StepStatus.PENDING);
		assertThat(changed.step(0).status()).isEqualTo(StepStatus.RUNNING);
		assertThat(changed.id()).isEqualTo(plan.id());
	}

	@Test
	void aSequenceRunsInOrderAndAGraphByDependencies() {
		Plan sequence = Plan.of("g", List.of("a", "b", "c"));
		assertThat(sequence.ready()).extracting(Step::index).containsExactly(0);

		Plan graph = new Plan("p", "g", List.of(Step.of(0, "a"), Step.of(1, "b"), Step.of(2, "c", List.of(0, 1))));
		assertThat(graph.ready()).extracting(Step::index).containsExactly(0, 1);
		Plan oneDone = graph.withStep(graph.step(0).start().complete("A"));
		assertThat(oneDone.ready()).extracting(Step::index).containsExactly(1);
		Plan bothDone = oneDone.withStep(oneDone.step(1).start().complete("B"));
		assertThat(bothDone.ready()).extracting(Step::index).containsExactly(2);
	}

	@Test
	void plansRejectForwardDependenciesAndWrongIndexes() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Plan("p", "g", List.of(Step.of(0, "a", List.of(1)), Step.of(1, "b"))));
		assertThatIllegalArgumentException().isThrownBy(() -> new Plan("p", "g", List.of(Step.of(1, "a"))));
		assertThatIllegalArgumentException().isThrownBy(() -> new Plan("p", "g", List.of()));
	}

	@Test
	void replannedKeepsCompletedStepsAndAppendsTheNewOnesRenumbered() {
		Plan plan = new Plan("p", "g", List.of(Step.of(0, "a"), Step.of(1, "b", List.of(0)), Step.of(2, "c")));
		plan = plan.withStep(plan.step(0).start().complete("A"));
		plan = plan.withStep(plan.step(1).start().fail("boom")).withStep(plan.step(2).skip("failed"));

		Plan replanned = plan.replanned(new Plan("q", "g", List.of(Step.of(0, "x"), Step.of(1, "y", List.of(0)))));

		assertThat(replanned.id()).isEqualTo("p");
		assertThat(replanned.steps()).extracting(Step::description).containsExactly("a", "x", "y");
		assertThat(replanned.step(0).status()).isEqualTo(StepStatus.COMPLETED);
		assertThat(replanned.step(2).dependsOn()).containsExactly(1);
		assertThat(replanned.ready()).extracting(Step::index).containsExactly(1);
	}

}
