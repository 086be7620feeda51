package dev.agcore.runtime;

import java.util.Map;
import java.util.Objects;

import dev.agcore.observation.AgentMetrics;
import dev.agcore.retrieval.Retriever;
import org.jspecify.annotations.Nullable;

/**
 * The runner an agent's turns use and what it needs.
 *
 * @param runner the runner
 * @param fallback the runner a failed ReAct turn is retried with, null for none
 * @param retriever what retrieval QA retrieves from, null for none
 * @param topK the most sources retrieval QA gives the model
 * @param minScore the least score of a source retrieval QA keeps
 * @param commands the planner's {@code @command} aliases: command to tool name
 */
record RunnerSettings(Runner runner, @Nullable Runner fallback, @Nullable Retriever retriever, int topK,
		double minScore, Map<String, String> commands) {

	RunnerSettings {
		commands = Map.copyOf(commands);
		if (fallback != null && (runner != Runner.REACT || fallback != Runner.PLANNER)) {
			throw new IllegalStateException("Only the react runner has a fallback runner, and only planner (was "
					+ runner + " with fallback " + fallback + ")");
		}
		if (runner == Runner.RETRIEVAL_QA && retriever == null) {
			throw new IllegalStateException("The retrieval-qa runner needs a retriever");
		}
	}

	TurnRunner create(DefaultAgent agent, ModelStep step, AgentMetrics metrics) {
		TurnRunner react = agent::step;
		return switch (this.runner) {
			case REACT -> (this.fallback != null)
					? new FallbackRunner(agent.name(), react, create(this.fallback, agent, step), metrics) : react;
			case LLM, RETRIEVAL_QA, PLANNER -> create(this.runner, agent, step);
		};
	}

	private TurnRunner create(Runner runner, DefaultAgent agent, ModelStep step) {
		return switch (runner) {
			case REACT -> agent::step;
			case LLM -> new LlmRunner(step);
			case RETRIEVAL_QA -> new RetrievalQaRunner(step, Objects.requireNonNull(this.retriever), this.topK, this.minScore);
			case PLANNER -> new PlannerRunner(agent, step, this.commands);
		};
	}

}
