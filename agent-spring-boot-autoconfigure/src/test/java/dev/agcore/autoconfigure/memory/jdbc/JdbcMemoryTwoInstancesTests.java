package dev.agcore.autoconfigure.memory.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agcore.autoconfigure.LocalServices;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.MemoryException;
import dev.agcore.memory.jdbc.JdbcConversationStore;
import dev.agcore.memory.jdbc.JdbcMemorySchema;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.runtime.ResumeRequest;
import dev.agcore.runtime.ToolDecision;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two application instances on one PostgreSQL database (127.0.0.1:5432, database
 * {@code test}), each with its own agents and store objects: a conversation started on one
 * continues on the other, and a turn paused for approval on one is resumed on the other.
 * Also that on a database server the tables are created only when asked for. Skipped when
 * PostgreSQL is not running, failed on CI.
 */
class JdbcMemoryTwoInstancesTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String PREFIX = "two_" + UUID.randomUUID().toString().substring(0, 8) + "_";

	private final ApplicationContextRunner instance = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcMemoryAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class))
		.withUserConfiguration(AgentsConfiguration.class)
		.withBean("weatherTools", WeatherTools.class)
		.withPropertyValues("agent.memory.store=jdbc", "agent.memory.jdbc.initialize-schema=always",
				"agent.memory.jdbc.table-prefix=" + PREFIX, "spring.datasource.url=" + URL,
				"spring.datasource.username=postgres");

	@BeforeAll
	static void requirePostgres() {
		LocalServices.require("PostgreSQL", 5432);
	}

	@AfterAll
	static void dropTables() throws Exception {
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", "");
		JdbcMemorySchema.drop(dataSource, PREFIX);
	}

	@Test
	void aConversationStartedOnOneInstanceContinuesOnTheOther() {
		this.instance.run((one) -> this.instance.run((two) -> {
			assertThat(one.getBean(ConversationStore.class)).isInstanceOf(JdbcConversationStore.class)
				.isNotSameAs(two.getBean(ConversationStore.class));
			String session = "chat-" + UUID.randomUUID();
			AgentResult first = agent(one, "assistant").invoke(AgentRequest.of(session, "Weather in Paris?"))
				.block(TIMEOUT);
			assertThat(first.output()).isEqualTo("Here you go: Sunny, 21 C in Paris");

			AgentResult second = agent(two, "assistant").invoke(AgentRequest.of(session, "And in Oslo?")).block(TIMEOUT);
			assertThat(second.output()).isEqualTo("Here you go: Sunny, 21 C in Oslo (after 1 earlier question)");

			List<Message> history = agent(one, "assistant").history(session).block(TIMEOUT);
			assertThat(history).hasSize(8);
			assertThat(history.get(0)).isEqualTo(new UserMessage("Weather in Paris?"));
			assertThat(history.get(4)).isEqualTo(new UserMessage("And in Oslo?"));
		}));
	}

	@Test
	void aTurnPausedForApprovalOnOneInstanceIsResumedOnTheOther() {
		this.instance.run((one) -> this.instance.run((two) -> {
			String session = "approval-" + UUID.randomUUID();
			AgentResult paused = agent(one, "careful").invoke(AgentRequest.of(session, "Weather in Paris?"))
				.block(TIMEOUT);
			assertThat(paused.isInterrupted()).isTrue();
			assertThat(two.getBean(WeatherTools.class).calls()).isZero();

			AgentResult resumed = agent(two, "careful")
				.resume(ResumeRequest.of(session, Map.of("call-1", ToolDecision.approve())))
				.block(TIMEOUT);
			assertThat(resumed.isCompleted()).isTrue();
			assertThat(resumed.output()).isEqualTo("Here you go: Sunny, 21 C in Paris");
			assertThat(two.getBean(WeatherTools.class).calls()).isOne();
			assertThat(one.getBean(WeatherTools.class).calls()).isZero();

			assertThat(one.getBean(ConversationStore.class).loadPending(session).blockOptional(TIMEOUT)).isEmpty();
			List<Message> history = agent(one, "careful").history(session).block(TIMEOUT);
			assertThat(history).hasSize(4);
			assertThat(history.get(2)).isInstanceOf(ToolResultMessage.class);
		}));
	}

	@Test
	void onADatabaseServerTheTablesAreCreatedOnlyWhenAskedFor() {
		String prefix = "noinit_" + UUID.randomUUID().toString().substring(0, 8) + "_";
		this.instance.withPropertyValues("agent.memory.jdbc.initialize-schema=embedded",
				"agent.memory.jdbc.table-prefix=" + prefix)
			.run((context) -> {
				// no tables were created, and startup says so rather than the first turn
				assertThat(context).getFailure()
					.rootCause()
					.hasMessageContaining(prefix + "session")
					.hasMessageContaining("agent.memory.jdbc.initialize-schema=always");
				Long tables = JdbcClient.create(new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", ""))
					.sql("SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE ?")
					.param(prefix + "%")
					.query(Long.class)
					.single();
				assertThat(tables).isZero();
			});
	}

	private static Agent agent(AssertableApplicationContext context, String name) {
		assertThat(context).hasNotFailed();
		return context.getBean(AgentRegistry.class).get(name);
	}

	@Configuration(proxyBeanMethods = false)
	static class AgentsConfiguration {

		/** Calls get_weather for the city asked about, then answers from its result. */
		@Bean
		ChatModel scripted() {
			return ScriptedChatModel.answering((request) -> {
				List<Message> messages = request.messages();
				Message last = messages.get(messages.size() - 1);
				if (last instanceof ToolResultMessage result) {
					long earlier = messages.stream().filter(UserMessage.class::isInstance).count() - 1;
					return ScriptedChatModel.text("Here you go: " + result.text()
							+ ((earlier > 0) ? " (after " + earlier + " earlier question)" : ""));
				}
				String city = ((UserMessage) last).text().contains("Paris") ? "Paris" : "Oslo";
				return ScriptedChatModel.toolCalls(new ToolCall("call-1", "get_weather", "{\"city\":\"" + city + "\"}"));
			});
		}

		@Bean
		Agent careful(ChatModel scripted, ToolRegistry tools, ConversationStore conversationStore) {
			return Agent.builder()
				.name("careful")
				.model(scripted)
				.tools(tools.all())
				.conversationStore(conversationStore)
				.middleware(HumanInTheLoopMiddleware.forTools(Set.of("get_weather")))
				.build();
		}

		@Bean
		Agent assistant(ChatModel scripted, ToolRegistry tools, ConversationStore conversationStore) {
			return Agent.builder()
				.name("assistant")
				.model(scripted)
				.tools(tools.all())
				.conversationStore(conversationStore)
				.build();
		}

	}

}
