package dev.agcore.autoconfigure.a2a;

import java.time.Duration;

import dev.agcore.a2a.client.A2aRemote;
import dev.agcore.a2a.client.A2aRemoteAgents;
import dev.agcore.autoconfigure.AgentConfigurationException;
import dev.agcore.autoconfigure.WeatherTools;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.AgentToolSource;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.testing.ScriptedChatModel;
import dev.agcore.tool.ToolSpec;
import io.a2a.spec.AgentCard;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link A2aClientAutoConfiguration}: which beans exist, how properties map,
 * how agents name the remotes, and what fails startup. No remote is called here (nothing
 * is fetched at startup); see {@link A2aRemoteInteropTests} for a real one.
 */
class A2aClientAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				AgentAutoConfiguration.class, A2aClientAutoConfiguration.class))
		.withBean("scripted", ChatModel.class, ScriptedChatModel::replaying);

	@Test
	void withoutRemotesNothingA2aIsCreated() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(A2aRemoteAgents.class)
			.doesNotHaveBean(AgentToolSource.class));
	}

	@Test
	void withoutTheSdkNothingA2aIsCreatedAndAgentsStillStart() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(AgentCard.class))
			.withPropertyValues("agent.a2a.remotes.trips.url=http://localhost:1")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(A2aRemoteAgents.class)
				.hasSingleBean(Agent.class));
	}

	@Test
	void propertiesBecomeRemotesWithoutAnyRequest() {
		this.contextRunner
			.withPropertyValues("agent.a2a.remotes.trips.url=http://localhost:1/a2a",
					"agent.a2a.remotes.trips.headers.Authorization=Bearer ${A2A_TEST_TOKEN:token}",
					"agent.a2a.remotes.trips.timeout=30s", "agent.a2a.remotes.trips.description=Plans trips.",
					"agent.a2a.remotes.cards.url=http://localhost:1/cards/agent.json")
			.run((context) -> {
				A2aRemoteAgents remotes = context.getBean(A2aRemoteAgents.class);
				assertThat(remotes.names()).containsExactly("trips", "cards");
				A2aRemote trips = remotes.tool("trips").orElseThrow().remote();
				assertThat(trips.url()).hasToString("http://localhost:1/a2a");
				assertThat(trips.cardUrl()).hasToString("http://localhost:1/a2a/.well-known/agent-card.json");
				assertThat(trips.headers()).containsEntry("Authorization", "Bearer token");
				assertThat(trips.timeout()).isEqualTo(Duration.ofSeconds(30));
				assertThat(remotes.tool("cards").orElseThrow().remote().cardUrl())
					.hasToString("http://localhost:1/cards/agent.json");
				assertThat(remotes.tool("trips").orElseThrow().spec().description()).startsWith("Plans trips.");
				assertThat(context.getBean(AgentToolSource.class).tools()).isSameAs(remotes);
			});
	}

	@Test
	void agentsNameRemotesInTheirToolsAsTheyNameTools() {
		this.contextRunner.withBean(WeatherTools.class)
			.withPropertyValues("agent.a2a.remotes.trips.url=http://localhost:1",
					"agent.agents.lead.tools=get_weather,trips", "agent.agents.solo.tools=get_weather",
					"agent.agents.all.model=scripted")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				AgentRegistry agents = context.getBean(AgentRegistry.class);
				assertThat(agents.get("lead").tools()).extracting(ToolSpec::name).contains("get_weather", "trips");
				assertThat(agents.get("solo").tools()).extracting(ToolSpec::name).doesNotContain("trips");
				// an agent without a tools list gets every tool, remotes included
				assertThat(agents.get("all").tools()).extracting(ToolSpec::name).contains("trips");
			});
	}

	@Test
	void aMisspelledRemoteInAnAgentsToolsFailsListingTheRemotes() {
		this.contextRunner
			.withPropertyValues("agent.a2a.remotes.trips.url=http://localhost:1", "agent.agents.lead.tools=trip")
			.run((context) -> assertThat(failure(context)).hasMessageContaining(
					"agent.agents.lead.tools: unknown tool 'trip'; known tools: [").hasMessageContaining("trips"));
	}

	@Test
	void aRemoteWithoutUrlFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.a2a.remotes.trips.timeout=10s")
			.run((context) -> assertThat(failure(context)).hasMessage("agent.a2a.remotes.trips.url is required"));
	}

	@Test
	void aRemoteWithANonHttpUrlFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.a2a.remotes.trips.url=ftp://example.com/a2a")
			.run((context) -> assertThat(failure(context)).hasMessage(
					"agent.a2a.remotes.trips.url: the url 'ftp://example.com/a2a' is not an absolute http or https URL"));
	}

	@Test
	void aRemoteWhoseNameIsNoToolNameFailsNamingIt() {
		this.contextRunner.withPropertyValues("agent.a2a.remotes[trip.planner].url=http://localhost:1")
			.run((context) -> assertThat(failure(context)).hasMessageStartingWith(
					"agent.a2a.remotes.trip.planner: the name 'trip.planner' is not a tool name"));
	}

	@Test
	void aRemoteNamedAsAToolOfTheApplicationFails() {
		this.contextRunner.withBean(WeatherTools.class)
			.withPropertyValues("agent.a2a.remotes.get_weather.url=http://localhost:1")
			.run((context) -> assertThat(failure(context)).hasMessageStartingWith(
					"agent.a2a.remotes.get_weather: the remote agent 'get_weather' is a tool of that name, which the "
							+ "application has already"));
	}

	@Test
	void aMisspelledKeyFailsNamingIt() {
		this.contextRunner
			.withPropertyValues("agent.a2a.remotes.trips.url=http://localhost:1", "agent.a2a.remotes.trips.timout=5s")
			.run((context) -> assertThat(failure(context))
				.hasMessageContaining("Unknown configuration properties: agent.a2a.remotes.trips.timout"));
	}

	private static Throwable failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (!(failure instanceof AgentConfigurationException) && failure.getCause() != null) {
			failure = failure.getCause();
		}
		assertThat(failure).isInstanceOf(AgentConfigurationException.class);
		return failure;
	}

}
