package dev.agcore.docs.multiagent;

import java.util.List;

import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.SubAgentTool;
import dev.agcore.tool.ToolCallback;

/** A sub-agent in Java, from docs/multi-agent.md. */
class SubAgents {

	static AgentResult ask(ChatModel fastModel, ChatModel strongModel, List<ToolCallback> searchTools) {
		// tag::subagent[]
		Agent researcher = Agent.builder()
			.name("researcher")
			.model(fastModel)
			.systemPrompt("You research. Answer briefly, with sources.")
			.tools(searchTools)
			.build();

		Agent lead = Agent.builder()
			.name("lead")
			.model(strongModel)
			.tool(SubAgentTool.builder(researcher)
				.description("Finds facts on the web and answers with sources.")
				.maxDepth(3)                 // default SubAgentTool.DEFAULT_MAX_DEPTH
				.maxTaskLength(16_000)       // default SubAgentTool.DEFAULT_MAX_TASK_LENGTH
				.build())                    // or SubAgentTool.of(researcher)
			.build();

		AgentResult result = lead.call("s1", "Who designed the Eiffel tower?");
		// end::subagent[]
		return result;
	}

}
