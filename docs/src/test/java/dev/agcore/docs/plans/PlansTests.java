package dev.agcore.docs.plans;

import java.time.Duration;
import java.util.List;

import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.plan.Plan;
import dev.agcore.plan.Step;
import dev.agcore.plan.StepStatus;
import dev.agcore.plan.task.TaskAgent;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of docs/plans.md: the yml and the programmatic planner. */
class PlansTests {

	private static final String PLAN = "{\"steps\":[{\"description\":\"Find the makers\"},{\"description\":\"Compare them\"}]}";

	private final ScriptedChatModel plannerModel = ScriptedChatModel.answering((request) -> ScriptedChatModel.text(PLAN));

	private final ScriptedChatModel stepModel = ScriptedChatModel
		.answering((request) -> ScriptedChatModel.text("Step done."));

	private final TaskAgent planner = Planners.planner(
			Agent.builder().name("researcher").model(this.stepModel).build(), this.plannerModel, AgentMetrics.NOOP);

	@Test
	void theYamlMakesThePlanningResearcher() {
		SnippetContexts.yaml("plans/researcher.yml").withUserConfiguration(ResearchTools.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(AgentRegistry.class).find("researcher")).get().isInstanceOf(TaskAgent.class);
		});
	}

	@Test
	void aTurnPlansTheMessageAndRunsThePlan() {
		List<AgentEvent> events = Planners.turn(this.planner).collectList().block(Duration.ofSeconds(10));
		assertThat(events).anyMatch(AgentEvent.PlanUpdate.class::isInstance);
		assertThat(events).last().isInstanceOf(AgentEvent.Completed.class);
		AgentResult result = Planners.blockingTurn(this.planner);
		assertThat(result.isCompleted()).isTrue();
		assertThat(this.plannerModel.requests()).isNotEmpty();
	}

	@Test
	void theModelPlansWithoutRunning() {
		Plan plan = Planners.onlyThePlan(this.planner).block(Duration.ofSeconds(10));
		assertThat(plan.steps()).extracting(Step::description).containsExactly("Find the makers", "Compare them");
		assertThat(this.stepModel.requests()).isEmpty();
	}

	@Test
	void aPlanMadeElsewhereRuns() {
		Plan finished = Planners.release(this.planner).block(Duration.ofSeconds(10));
		assertThat(finished.steps()).extracting(Step::status).containsOnly(StepStatus.COMPLETED);
		assertThat(this.plannerModel.requests()).isEmpty();
		List<AgentEvent> steps = Planners.releaseWithRequest(this.planner).collectList().block(Duration.ofSeconds(10));
		assertThat(steps).last().isInstanceOf(AgentEvent.Completed.class);
	}

}
