package dev.agcore.docs.prompts;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;

import dev.agcore.model.ChatModel;
import dev.agcore.prompt.PromptTemplates;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.EnvironmentContext;
import dev.agcore.runtime.SystemPromptTemplate;

/** An agent's system prompt in Java, from docs/prompts.md. */
class SupportAgents {

	static AgentResult ask(ChatModel model, PromptTemplates templates) {
		// tag::agent[]
		Agent agent = Agent.builder()
				.name("support")
				.model(model)
				.basePrompt("Never promise refunds.")
				.systemPrompt(new SystemPromptTemplate(templates.get("support/system"), Map.of("shop", "Tea & Co")))
				.environment(new EnvironmentContext(true, ZoneId.of("Europe/Berlin"), true, Map.of("Opening hours", "9 to 17")))
				.build();

		agent.call(AgentRequest.of("s1", "Where is my order?")
				.withInstructions("Answer in German.")
				.withLocale(Locale.GERMANY));
		// end::agent[]
		return agent.call(AgentRequest.of("s1", "Thanks"));
	}

}
