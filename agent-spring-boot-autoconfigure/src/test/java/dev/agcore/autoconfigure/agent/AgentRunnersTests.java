package dev.agcore.autoconfigure.agent;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.retrieval.KnowledgeAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.json.AgentJson;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ModelServerException;
import dev.agcore.model.ToolChoice;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.Runner;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolCallback;
import dev.agcore.tool.ToolContext;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/** Tests for the runner settings of configured agents. */
class AgentRunnersTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				KnowledgeAutoConfiguration.class, AgentAutoConfiguration.class))
		.withBean("searchWeb", ToolCallback.class, () -> tool("search_web"));

	@Test
	void plannerWithCommandsFromConfiguration() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "search_web", "{}")),
				text("Found."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.runner=planner",
					"agent.agents.a.runner-commands.web=search_web")
			.run((context) -> {
				AgentResult result = context.getBean("a", Agent.class).call("s1", "@web news");
				assertThat(result.output()).isEqualTo("Found.");
				assertThat(model.requests()).hasSize(2);
				assertThat(model.requests().get(0).options().toolChoice()).isEqualTo(ToolChoice.tool("search_web"));
				assertThat(model.requests().get(0).messages()).last().extracting((m) -> m.text()).isEqualTo("news");
			});
	}

	@Test
	void xmlToolCallFormatFromConfiguration() {
		ScriptedChatModel model = ScriptedChatModel.replaying(
				text("<use_tool>\n<name>search_web</name>\n<args>{}</args>\n</use_tool>"), text("Found."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.tools=search_web",
					"agent.agents.a.tool-call-format=XML")
			.run((context) -> {
				AgentResult result = context.getBean("a", Agent.class).call("s1", "news");
				assertThat(result.output()).isEqualTo("Found.");
				assertThat(result.toolExecutions()).singleElement()
					.satisfies((execution) -> assertThat(execution.name()).isEqualTo("search_web"));
				assertThat(model.requests().get(0).tools()).isEmpty();
				assertThat(model.requests().get(0).messages().get(0).text()).contains("## search_web");
			});
	}

	@Test
	void anUnknownToolCallFormatFailsStartupNamingTheProperty() {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying(text("Hi.")))
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.tool-call-format=json")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("agent.agents.a.tool-call-format: unknown tool-call format 'json'"));
	}

	@Test
	void llmFromConfigurationOffersNoTools() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Hi."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.runner=LLM")
			.run((context) -> {
				assertThat(context.getBean("a", Agent.class).call("s1", "hi").output()).isEqualTo("Hi.");
				assertThat(model.requests()).singleElement().satisfies((r) -> assertThat(r.tools()).isEmpty());
			});
	}

	@Test
	void retrievalQaSearchesTheKnowledgeStoreAndCitesIt() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Three times, with backoff [1]."));
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.knowledge.path=classpath:knowledge-test", "agent.agents.qa.model=scripted",
					"agent.agents.qa.runner=retrieval-qa", "agent.agents.qa.retrieval-qa.top-k=2",
					"agent.agents.qa.retrieval-qa.min-score=0.05")
			.run((context) -> {
				Agent agent = context.getBean("qa", Agent.class);
				AgentResult result = agent.call("s1", "How does the client retry failed requests?");
				assertThat(result.output()).startsWith("Three times, with backoff [1].\n\nSources:\n[1] Retry policy (");
				assertThat(model.requests().get(0).tools()).isEmpty();
				assertThat(model.requests().get(0).messages().get(0).text())
					.contains("The client retries three times with exponential backoff.");
				assertThat(agent.call("s2", "zebra giraffe").output()).isEqualTo(Runner.NOTHING_FOUND);
				assertThat(model.requests()).hasSize(1);
			});
	}

	@Test
	void retrievalQaUsesTheNamedRetrieverAmongSeveral() {
		Retriever first = (request) -> Mono.just(List.of(new ScoredDocument(Document.of("one", "First."), 1)));
		Retriever second = (request) -> Mono.just(List.of(new ScoredDocument(Document.of("two", "Second."), 1)));
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Yes [1]."));
		ApplicationContextRunner runner = this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withBean("first", Retriever.class, () -> first)
			.withBean("second", Retriever.class, () -> second)
			.withPropertyValues("agent.agents.qa.model=scripted", "agent.agents.qa.runner=retrieval-qa");
		runner.run((context) -> assertThat(context).getFailure()
			.rootCause()
			.isInstanceOf(AgentConfigurationException.class)
			.hasMessageContaining("agent.agents.qa.runner is retrieval-qa and there are several Retriever beans "
					+ "[first, second]"));
		runner.withPropertyValues("agent.agents.qa.retrieval-qa.retriever=second")
			.run((context) -> assertThat(context.getBean("qa", Agent.class).call("s1", "?").output())
				.isEqualTo("Yes [1].\n\nSources:\n[1] two"));
	}

	@Test
	void reactFallsBackToThePlannerFromConfiguration() {
		AtomicInteger calls = new AtomicInteger();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> {
			if (calls.incrementAndGet() == 1) {
				throw new ModelServerException("openai", 400, "bad request");
			}
			return text("Planned.");
		});
		this.contextRunner.withBean("scripted", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.fallback-runner=planner")
			.run((context) -> {
				assertThat(context.getBean("a", Agent.class).call("s1", "go").output()).isEqualTo("Planned.");
				assertThat(model.requests()).hasSize(2);
			});
	}

	@Test
	void unknownRunnerFailsNamingTheProperty() {
		assertFails("agent.agents.a.runner: unknown runner 'chain'", "agent.agents.a.runner=chain");
	}

	@Test
	void retrievalQaWithoutAnyRetrieverFails() {
		assertFails("agent.agents.a.runner is retrieval-qa but there is no retriever",
				"agent.agents.a.runner=retrieval-qa");
	}

	@Test
	void fallbackOnlyFromReactAndOnlyToThePlanner() {
		assertFails("agent.agents.a.fallback-runner is set but agent.agents.a.runner is llm: only react falls back",
				"agent.agents.a.runner=llm", "agent.agents.a.fallback-runner=planner");
		assertFails("agent.agents.a.fallback-runner is llm: only planner can be a fallback",
				"agent.agents.a.fallback-runner=llm");
	}

	@Test
	void commandsMustNameToolsOfAPlanner() {
		assertFails("agent.agents.a.runner-commands.web: the agent has no tool 'search_the_web'",
				"agent.agents.a.runner=planner", "agent.agents.a.runner-commands.web=search_the_web");
		assertFails("agent.agents.a.runner-commands is set but agent.agents.a.runner is react",
				"agent.agents.a.runner-commands.web=search_web");
	}

	@Test
	void retrievalQaSettingsAreChecked() {
		assertFails("agent.agents.a.retrieval-qa.top-k must be at least 1 (was 0)",
				"agent.agents.a.retrieval-qa.top-k=0");
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.model=scripted", "agent.agents.a.retrieval-qa.topp=3")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining("Unknown configuration properties: agent.agents.a.retrieval-qa.topp"));
	}

	private void assertFails(String message, String... properties) {
		this.contextRunner.withBean("scripted", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.model=scripted")
			.withPropertyValues(properties)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessageContaining(message));
	}

	private static ToolCallback tool(String name) {
		ToolSpec spec = new ToolSpec(name, "test tool " + name,
				AgentJson.mapper().createObjectNode().put("type", "object"));
		return new ToolCallback() {

			@Override
			public ToolSpec spec() {
				return spec;
			}

			@Override
			public String call(String arguments, ToolContext context) {
				return "result of " + name;
			}

		};
	}

}
