package dev.agcore.docs.runners;

import java.util.List;
import java.util.Map;

import dev.agcore.model.ChatModel;
import dev.agcore.retrieval.Retriever;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.Runner;
import dev.agcore.tool.ToolCallback;

/** The agents of docs/runners.md, built in Java; {@link RunnersTests} runs them. */
class RunnerAgents {

	static Agent docs(ChatModel model, Retriever knowledgeStore) {
		// tag::builders[]
		Agent docs = Agent.builder()
			.name("docs")
			.model(model)
			.runner(Runner.RETRIEVAL_QA)
			.retriever(knowledgeStore)         // any dev.agcore.retrieval.Retriever
			.retrievalTopK(5)
			.retrievalMinScore(0.1)
			.build();
		// end::builders[]
		return docs;
	}

	static Agent helper(ChatModel model, List<ToolCallback> tools) {
		// tag::builders[]

		Agent helper = Agent.builder()
			.name("helper")
			.model(model)
			.tools(tools)
			.runner(Runner.PLANNER)
			.runnerCommands(Map.of("web", "search_web"))
			.build();
		// end::builders[]
		return helper;
	}

	static Agent assistant(ChatModel model, List<ToolCallback> tools) {
		// tag::builders[]

		Agent assistant = Agent.builder()
			.name("assistant")
			.model(model)
			.tools(tools)
			.fallbackRunner(Runner.PLANNER)    // react is the default runner
			.build();
		// end::builders[]
		return assistant;
	}

}
