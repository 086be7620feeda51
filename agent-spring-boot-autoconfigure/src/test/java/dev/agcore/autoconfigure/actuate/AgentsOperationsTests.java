package dev.agcore.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.MemoryUnavailableException;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for what operators see: the startup lines, the stores and sessions views of
 * {@code /actuator/agents} and the {@code agents} health contributor.
 */
class AgentsOperationsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentsEndpointAutoConfiguration.class, AgentsHealthAutoConfiguration.class))
		.withBean("scripted", ChatModel.class,
				() -> ScriptedChatModel.replaying(text("secret answer"), text("again")).withModelName("scripted-1"))
		.withBean("weatherTools", WeatherTools.class)
		.withPropertyValues("agent.agents.assistant.tools=get_*");

	@Test
	void startupListsAgentsWithModelRunnerAndToolCount() {
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		Logger logger = (Logger) LoggerFactory.getLogger("dev.agcore.agents");
		logger.setLevel(Level.INFO);
		logs.start();
		logger.addAppender(logs);
		try {
			this.contextRunner.run((context) -> assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
				.containsExactly("1 agent(s) ready: [assistant]",
						"Agent 'assistant': model=scripted/scripted-1 runner=react tools=2 middleware=0 "
								+ "max_iterations=10 turn_timeout=PT5M"));
		}
		finally {
			logger.detachAppender(logs);
			logger.setLevel(null);
		}
	}

	@Test
	void endpointShowsStoresAndSessionCountsWithoutContent() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=agents").run((context) -> {
			AgentsEndpoint endpoint = context.getBean(AgentsEndpoint.class);
			assertThat(endpoint.agents().stores()).containsEntry("conversations",
					InMemoryConversationStore.class.getName());
			Agent agent = context.getBean("assistant", Agent.class);
			agent.call("session-of-alice", "my password is hunter2");

			AgentSessionActivity.SessionsDescriptor sessions = endpoint.sessions("assistant", "sessions");

			assertThat(sessions).isNotNull();
			assertThat(sessions.sessions()).isEqualTo(1);
			assertThat(sessions.activeSessions()).containsEntry("5m", 1L).containsEntry("24h", 1L);
			assertThat(sessions.turns()).containsEntry("completed", 1L);
			assertThat(sessions.pausedSessions()).isZero();
			assertThat(sessions.lastActivity()).isNotNull();
			String json = JsonMapper.builder().build().writeValueAsString(sessions);
			assertThat(json).doesNotContain("hunter2", "secret answer", "session-of-alice");
			assertThat(endpoint.sessions("assistant", "other")).isNull();
			assertThat(endpoint.sessions("nobody", "sessions")).isNull();
		});
	}

	@Test
	void storesHealthIsUpWhenTheStoreAnswers() {
		this.contextRunner.run((context) -> {
			Health health = storeHealth(context.getBean("agentsHealthContributor",
					CompositeReactiveHealthContributor.class), "conversations");
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("store", InMemoryConversationStore.class.getName());
		});
	}

	@Test
	void storesHealthIsDownWhenTheStoreFails() {
		this.contextRunner.withBean(ConversationStore.class, AgentsOperationsTests::failingStore).run((context) -> {
			Health health = storeHealth(context.getBean("agentsHealthContributor",
					CompositeReactiveHealthContributor.class), "conversations");
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("error", "MemoryUnavailableException");
		});
	}

	@Test
	void providersThatOptedInAreCheckedUnderAgentsNextToTheStores() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(AgentModelsHealthAutoConfiguration.class))
			.withPropertyValues("agent.providers.local.type=openai", "agent.providers.local.base-url=http://127.0.0.1:9",
					"agent.providers.local.api-key=none", "agent.providers.local.model=m",
					"agent.providers.local.health.enabled=true", "agent.agents.assistant.model=scripted")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CompositeReactiveHealthContributor agents = context.getBean("agentsHealthContributor",
						CompositeReactiveHealthContributor.class);
				assertThat(agents.stream().map((child) -> child.name())).containsExactly("stores", "models");
				CompositeReactiveHealthContributor models = (CompositeReactiveHealthContributor) agents
					.getContributor("models");
				Health local = ((ReactiveHealthIndicator) models.getContributor("local")).health()
					.block(Duration.ofSeconds(15));
				assertThat(local.getStatus()).as("nothing listens on port 9").isEqualTo(Status.DOWN);
				assertThat(local.getDetails()).containsEntry("provider", "local");
			});
	}

	@Test
	void applicationPartsJoinTheAgentsContributor() {
		this.contextRunner
			.withBean("searchIndex", AgentHealthContribution.class,
					() -> new AgentHealthContribution("search-index",
							(ReactiveHealthIndicator) () -> Mono.just(Health.down().build())))
			.run((context) -> {
				CompositeReactiveHealthContributor agents = context.getBean("agentsHealthContributor",
						CompositeReactiveHealthContributor.class);
				assertThat(((ReactiveHealthIndicator) agents.getContributor("search-index")).health()
					.block(Duration.ofSeconds(5))
					.getStatus()).isEqualTo(Status.DOWN);
			});
	}

	private static Health storeHealth(CompositeReactiveHealthContributor agents, String store) {
		CompositeReactiveHealthContributor stores = (CompositeReactiveHealthContributor) agents.getContributor("stores");
		return ((ReactiveHealthIndicator) stores.getContributor(store)).health().block(Duration.ofSeconds(5));
	}

	private static ConversationStore failingStore() {
		InMemoryConversationStore delegate = new InMemoryConversationStore();
		return (ConversationStore) java.lang.reflect.Proxy.newProxyInstance(AgentsOperationsTests.class.getClassLoader(),
				new Class<?>[] { ConversationStore.class }, (proxy, method, args) -> {
					if (method.getName().equals("load")) {
						return Mono.error(new MemoryUnavailableException("db down", null));
					}
					return method.invoke(delegate, args);
				});
	}

}
