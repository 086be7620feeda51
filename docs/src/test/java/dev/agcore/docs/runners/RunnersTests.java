package dev.agcore.docs.runners;

import java.util.List;
import java.util.Map;

import dev.agcore.docs.support.DocsTools;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.model.ChatModel;
import dev.agcore.retrieval.Retriever;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.Runner;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.method.MethodTools;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runners of docs/runners.md, from yml and from the builder.
 */
class RunnersTests {

	private final ChatModel model = ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok"));

	private final Retriever knowledgeStore = (request) -> Mono.just(List.of());

	private final List<ToolCallback> tools = MethodTools.from(new SearchTools());

	@Test
	void runnersFromYmlStartWithTheirRetrieverAndCommandTools() {
		SnippetContexts.yaml("runners/runners.yml")
			.withBean("myRetriever", Retriever.class, () -> this.knowledgeStore)
			.withBean("model", ChatModel.class, () -> this.model)
			.withUserConfiguration(DocsTools.class, SearchTools.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(AgentRegistry.class).all()).extracting(Agent::name)
					.contains("chat", "docs", "helper", "assistant");
			});
	}

	@Test
	void runnersFromTheBuilder() {
		// tag::builder[]
		Agent docs = Agent.builder()
			.name("docs")
			.model(model)
			.runner(Runner.RETRIEVAL_QA)
			.retriever(knowledgeStore)         // any dev.agcore.retrieval.Retriever
			.retrievalTopK(5)
			.retrievalMinScore(0.1)
			.build();

		Agent helper = Agent.builder()
			.name("helper")
			.model(model)
			.tools(tools)
			.runner(Runner.PLANNER)
			.runnerCommands(Map.of("web", "search_web"))
			.build();

		Agent assistant = Agent.builder()
			.name("assistant")
			.model(model)
			.tools(tools)
			.fallbackRunner(Runner.PLANNER)    // react is the default runner
			.build();
		// end::builder[]
		assertThat(List.of(docs, helper, assistant)).extracting(Agent::name).containsExactly("docs", "helper",
				"assistant");
		assertThat(assistant.call("s1", "Hello").output()).isEqualTo("ok");
	}

	/** The tool the planner's command names. */
	public static class SearchTools {

		@dev.agcore.Tool(name = "search_web", description = "Search the web", secrets = {})
		public String search(String query) {
			return "nothing about " + query;
		}

	}

}
