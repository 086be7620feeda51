package dev.agcore.docs.plans;

import java.util.List;

import dev.agcore.model.ChatModel;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.plan.Plan;
import dev.agcore.plan.task.TaskAgent;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The programmatic planner of docs/plans.md; {@link PlansTests} runs each part. */
class Planners {

	static TaskAgent planner(Agent agent, ChatModel plannerModel, AgentMetrics metrics) {
		// tag::builder[]
		TaskAgent planner = TaskAgent.builder(agent)   // the agent whose turns run the steps
			.planningModel(plannerModel)                 // default: agent.model()
			.maxSteps(8)
			.replan(true)
			.maxReplans(2)
			.parallelism(3)
			.metrics(metrics)                            // an AgentMetrics, such as MicrometerAgentMetrics
			.build();
		// end::builder[]
		return planner;
	}

	static Flux<AgentEvent> turn(TaskAgent planner) {
		// tag::builder[]

		// a turn: plan the message, run the plan
		Flux<AgentEvent> events = planner.stream(AgentRequest.of("s1", "Compare the three largest EV makers"));
		// end::builder[]
		return events;
	}

	static AgentResult blockingTurn(TaskAgent planner) {
		// tag::builder[]
		AgentResult result = planner.invoke(AgentRequest.of("s2", "...")).block(); // not on an event loop
		// end::builder[]
		return result;
	}

	static Mono<Plan> onlyThePlan(TaskAgent planner) {
		// tag::builder[]

		// only the plan
		Mono<Plan> planned = planner.plan("s1", "Compare the three largest EV makers");
		// end::builder[]
		return planned;
	}

	static Mono<Plan> release(TaskAgent planner) {
		// tag::builder[]

		// run a plan made elsewhere (steps already ended are kept; none may be running)
		Plan release = Plan.of("Release 1.2", List.of("Run the tests", "Tag the release"));
		Mono<Plan> finished = planner.executePlan("s1", release);
		// end::builder[]
		return finished;
	}

	static Flux<AgentEvent> releaseWithRequest(TaskAgent planner) {
		Plan release = Plan.of("Release 1.2", List.of("Run the tests", "Tag the release"));
		// tag::builder[]
		// with the user, state and options of a request (its message is not used)
		Flux<AgentEvent> steps = planner.executePlan(AgentRequest.of("s1", "release").withUserId("u1"), release);
		// end::builder[]
		return steps;
	}

}
