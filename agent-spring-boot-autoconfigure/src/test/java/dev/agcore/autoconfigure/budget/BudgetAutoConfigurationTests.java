package dev.agcore.autoconfigure.budget;

import java.util.Map;

import dev.agcore.AgentPrincipal;
import dev.agcore.autoconfigure.agent.AgentAutoConfiguration;
import dev.agcore.autoconfigure.audit.AuditAutoConfiguration;
import dev.agcore.autoconfigure.memory.ConversationStoreAutoConfiguration;
import dev.agcore.autoconfigure.middleware.MiddlewareAutoConfiguration;
import dev.agcore.autoconfigure.model.ChatModelAutoConfiguration;
import dev.agcore.autoconfigure.observation.AgentMetricsAutoConfiguration;
import dev.agcore.autoconfigure.tool.ToolAutoConfiguration;
import dev.agcore.budget.Budget;
import dev.agcore.budget.BudgetBuckets;
import dev.agcore.budget.BudgetExceededException;
import dev.agcore.budget.BudgetMiddleware;
import dev.agcore.budget.BudgetScope;
import dev.agcore.budget.LocalBudgetBuckets;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentRegistry;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.github.bucket4j.Bucket;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link BudgetAutoConfiguration}: an agent gets a budget middleware, first
 * among its middleware, only when a limit applies to it; its own limits win over
 * {@code agent.budget.*}; a mistake names its property.
 */
class BudgetAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ChatModelAutoConfiguration.class, ToolAutoConfiguration.class,
				ConversationStoreAutoConfiguration.class, AgentMetricsAutoConfiguration.class,
				MiddlewareAutoConfiguration.class, AuditAutoConfiguration.class, BudgetAutoConfiguration.class,
				AgentAutoConfiguration.class))
		.withBean("scripted", ChatModel.class,
				() -> ScriptedChatModel.answering((request) -> ScriptedChatModel.text("ok")))
		.withPropertyValues("agent.agents.assistant.model=scripted",
				"agent.agents.assistant.middleware.model-call-limit.per-turn=5", "agent.agents.other.model=scripted");

	@Test
	void agentWithoutLimitsHasNoBudget() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LocalBudgetBuckets.class);
			assertThat(agent(context.getBean(AgentRegistry.class), "assistant").middleware())
				.noneMatch(BudgetMiddleware.class::isInstance);
		});
	}

	@Test
	void agentLimitsOverTheDefaultsMakeTheFirstMiddleware() {
		this.contextRunner
			.withPropertyValues("agent.budget.tokens-per-day=1000", "agent.budget.per=session",
					"agent.agents.assistant.budget.turns-per-minute=5", "agent.agents.assistant.budget.per=principal",
					"agent.agents.other.budget.tokens-per-day=0")
			.run((context) -> {
				AgentRegistry agents = context.getBean(AgentRegistry.class);
				assertThat(agent(agents, "assistant").middleware()).first()
					.isInstanceOfSatisfying(BudgetMiddleware.class, (budget) -> assertThat(budget.budget())
						.isEqualTo(new Budget(5, 1000, 0, BudgetScope.PRINCIPAL)));
				assertThat(agent(agents, "other").middleware()).noneMatch(BudgetMiddleware.class::isInstance);
			});
	}

	@Test
	void refusedTurnFailsWithTheBudgetException() {
		this.contextRunner.withPropertyValues("agent.agents.assistant.budget.turns-per-minute=1").run((context) -> {
			Agent agent = agent(context.getBean(AgentRegistry.class), "assistant");
			asAlice(agent, new AgentRequest("s1", "hi", Map.of(), "alice"));
			assertThatExceptionOfType(BudgetExceededException.class)
				.isThrownBy(() -> asAlice(agent, new AgentRequest("s2", "hi", Map.of(), "alice")));
		});
	}

	@Test
	void outputReservationIsDefaultedAndConfigurable() {
		this.contextRunner.withPropertyValues("agent.agents.assistant.budget.tokens-per-day=10000").run((context) -> {
			assertThat(agent(context.getBean(AgentRegistry.class), "assistant").middleware()).first()
				.isInstanceOfSatisfying(BudgetMiddleware.class, (budget) -> assertThat(budget.outputReservation())
					.isEqualTo(BudgetMiddleware.DEFAULT_OUTPUT_RESERVATION));
		});
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.budget.tokens-per-day=10000",
					"agent.budget.output-reservation=512")
			.run((context) -> assertThat(agent(context.getBean(AgentRegistry.class), "assistant").middleware())
				.first()
				.isInstanceOfSatisfying(BudgetMiddleware.class,
						(budget) -> assertThat(budget.outputReservation()).isEqualTo(512)));
	}

	@Test
	void outputReservationBelowOneNamesItsProperty() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.budget.tokens-per-day=10000",
					"agent.budget.output-reservation=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.budget.output-reservation must be at least 1"));
	}

	@Test
	void unknownScopeNamesItsProperty() {
		this.contextRunner
			.withPropertyValues("agent.agents.assistant.budget.turns-per-minute=1",
					"agent.agents.assistant.budget.per=tenant")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.agents.assistant.budget.per is 'tenant'"));
	}

	@Test
	void negativeLimitNamesItsProperty() {
		this.contextRunner.withPropertyValues("agent.budget.tokens-per-month=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.budget.tokens-per-month must not be negative"));
	}

	@Test
	void withoutBucket4jAgentsStartWithoutBudgets() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Bucket.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(AgentBudgets.class);
				assertThat(agent(context.getBean(AgentRegistry.class), "assistant").call("s1", "hi").output())
					.isEqualTo("ok");
			});
	}

	@Test
	void applicationBucketsReplaceTheDefault() {
		LocalBudgetBuckets own = new LocalBudgetBuckets();
		this.contextRunner.withBean(BudgetBuckets.class, () -> own)
			.run((context) -> assertThat(context.getBean(BudgetBuckets.class)).isSameAs(own));
	}

	@Test
	void storeThatCannotBeUsedFailsStartup() {
		this.contextRunner.withPropertyValues("agent.budget.store=cassandra")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("agent.budget.store is 'cassandra'"));
	}

	private static Agent agent(AgentRegistry agents, String name) {
		return agents.find(name).orElseThrow();
	}

	/** A turn of the authenticated user alice: a user id alone names nobody once Spring Security is present. */
	private static AgentResult asAlice(Agent agent, AgentRequest request) {
		return agent.invoke(request).contextWrite(AgentPrincipal.context(AgentPrincipal.of("alice"))).block();
	}

}
