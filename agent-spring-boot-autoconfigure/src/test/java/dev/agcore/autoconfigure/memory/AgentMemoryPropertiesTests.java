package dev.agcore.autoconfigure.memory;

import java.util.List;

import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.middleware.builtin.AutoCompactionMiddleware;
import dev.agcore.middleware.builtin.SummarizationMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code agent.agents.<name>.memory}: the context window and auto-compaction of
 * a configured agent.
 */
class AgentMemoryPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class));

	@Test
	void aMessagesWindowShapesTheRequestWhileTheStoreKeepsEverything() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok"));
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.memory.window.type=messages",
					"agent.agents.a.memory.window.max-messages=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Agent agent = context.getBean("a", Agent.class);
				agent.call("s", "u1");
				agent.call("s", "u2");
				agent.call("s", "u3");
				assertThat(model.requests().get(2).messages()).extracting(Message::text).containsExactly("ok", "u3");
				assertThat(context.getBean(ConversationStore.class).load("s").block().messages()).hasSize(6);
			});
	}

	@Test
	void maxMessagesAloneChoosesTheMessagesWindowAndNothingChoosesTheFullOne() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok"));
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withPropertyValues("agent.agents.a.memory.window.max-messages=1", "agent.agents.b.provider=model")
			.run((context) -> {
				for (String name : List.of("a", "b")) {
					Agent agent = context.getBean(name, Agent.class);
					agent.call(name, "u1");
					agent.call(name, "u2");
				}
				assertThat(model.requests().get(1).messages()).extracting(Message::text).containsExactly("u2");
				assertThat(model.requests().get(3).messages()).extracting(Message::text)
					.containsExactly("u1", "ok", "u2");
			});
	}

	@Test
	void aTokensWindowCountsWithTheTokenizerOfOpenAiModelsAndEstimatesForOthers() {
		// with o200k_base "hello world" is 2 tokens (6 with framing), "ok" 1 (5); the estimate
		// makes them 7 and 5: in 17 tokens, an OpenAI model sees one message more
		ScriptedChatModel openAi = ScriptedChatModel.answering((request) -> text("ok")).withModelName("gpt-4o");
		ScriptedChatModel other = ScriptedChatModel.answering((request) -> text("ok")).withModelName("llama3.1");
		this.contextRunner.withBean("openai", ChatModel.class, () -> openAi)
			.withBean("other", ChatModel.class, () -> other)
			.withPropertyValues("agent.agents.a.provider=openai", "agent.agents.a.memory.window.max-tokens=17",
					"agent.agents.b.provider=other", "agent.agents.b.memory.window.type=tokens",
					"agent.agents.b.memory.window.max-tokens=17")
			.run((context) -> {
				for (String name : List.of("a", "b")) {
					Agent agent = context.getBean(name, Agent.class);
					for (int i = 0; i < 3; i++) {
						agent.call("s", "hello world");
					}
				}
				assertThat(openAi.requests().get(2).messages()).extracting(Message::text)
					.containsExactly("hello world", "ok", "hello world");
				assertThat(other.requests().get(2).messages()).extracting(Message::text)
					.containsExactly("ok", "hello world");
			});
	}

	@Test
	void compactionSummarizesWithTheConfiguredProviderAndStoresTheResult() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok")).withModelName("llama3.1");
		ScriptedChatModel cheap = ScriptedChatModel.answering((request) -> text("they talked"));
		this.contextRunner.withBean("model", ChatModel.class, () -> model)
			.withBean("cheap", ChatModel.class, () -> cheap)
			.withPropertyValues("agent.agents.a.provider=model", "agent.agents.a.memory.compaction.enabled=true",
					// a threshold of 100 estimated tokens
					"agent.agents.a.memory.compaction.context-window=33100",
					"agent.agents.a.memory.compaction.keep-recent=2",
					"agent.agents.a.memory.compaction.provider=cheap")
			.run((context) -> {
				Agent agent = context.getBean("a", Agent.class);
				assertThat(agent.middleware()).last()
					.extracting(AgentMiddleware::name)
					.isEqualTo(AutoCompactionMiddleware.class.getSimpleName());
				agent.call("s", "x".repeat(350));
				agent.call("s", "now");
				String summary = SummarizationMiddleware.SUMMARY_PREFIX + "\nthey talked";
				assertThat(cheap.requests()).hasSize(1);
				assertThat(model.requests().get(1).messages()).extracting(Message::text)
					.containsExactly(summary, "ok", "now");
				assertThat(context.getBean(ConversationStore.class).load("s").block().messages()).extracting(Message::text)
					.containsExactly(summary, "ok", "now", "ok");
			});
	}

	@Test
	void compactionIsOffByDefault() {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model")
			.run((context) -> assertThat(context.getBean("a", Agent.class).middleware()).isEmpty());
	}

	@Test
	void invalidSettingsFailStartupNamingTheProperty() {
		assertFailure("agent.agents.a.memory.window.max-messages must be at least 1 (was 0)",
				"agent.agents.a.memory.window.max-messages=0");
		assertFailure("agent.agents.a.memory.window.max-messages is set but agent.agents.a.memory.window.type is "
				+ "'full', which ignores it", "agent.agents.a.memory.window.type=full",
				"agent.agents.a.memory.window.max-messages=5");
		assertFailure("agent.agents.a.memory.window.max-tokens is set but agent.agents.a.memory.window.type is "
				+ "'messages', which ignores it", "agent.agents.a.memory.window.type=messages",
				"agent.agents.a.memory.window.max-tokens=500");
		assertFailure("agent.agents.a.memory.window.max-tokens must be at least 1 with "
				+ "agent.agents.a.memory.window.type=tokens (was null)", "agent.agents.a.memory.window.type=tokens");
		assertFailure("agent.agents.a.memory.compaction.context-window (30000) must be larger than "
				+ "agent.agents.a.memory.compaction.reserved-tokens (20000) + 13000 buffer tokens",
				"agent.agents.a.memory.compaction.enabled=true",
				"agent.agents.a.memory.compaction.context-window=30000");
		assertFailure("agent.agents.a.memory.compaction.keep-recent must be at least 1 (was 0)",
				"agent.agents.a.memory.compaction.enabled=true", "agent.agents.a.memory.compaction.keep-recent=0");
		assertFailure("agent.agents.a.memory.compaction.provider: unknown model 'cheap'; models: []; configured providers: []; "
				+ "ChatModel beans: [model]", "agent.agents.a.memory.compaction.enabled=true",
				"agent.agents.a.memory.compaction.provider=cheap");
	}

	@Test
	void aMisspelledMemoryKeyFailsStartup() {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model", "agent.agents.a.memory.window.max-message=3")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage("Unknown configuration properties: agent.agents.a.memory.window.max-message"));
	}

	private void assertFailure(String message, String... properties) {
		this.contextRunner.withBean("model", ChatModel.class, () -> ScriptedChatModel.replaying())
			.withPropertyValues("agent.agents.a.provider=model")
			.withPropertyValues(properties)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(AgentConfigurationException.class)
				.hasMessage(message));
	}

}
