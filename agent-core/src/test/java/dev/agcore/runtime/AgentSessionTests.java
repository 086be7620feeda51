package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.InMemoryKeyValueStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ConfiguredChatModel;
import dev.agcore.model.ModelPrice;
import dev.agcore.model.Usage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link AgentSession}.
 */
class AgentSessionTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final InMemoryConversationStore conversations = new InMemoryConversationStore();

	private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

	private final ScriptedChatModel planModel = ScriptedChatModel.answering((request) -> text("planned"));

	private final ScriptedChatModel buildModel = ScriptedChatModel.answering((request) -> text("built it"));

	private final AgentRegistry agents = new AgentRegistry(List.of(
			agent("plan", new ConfiguredChatModel("plan-model", this.planModel, ChatOptions.DEFAULTS,
					ModelPrice.of(1_000_000, 2_000_000), null)),
			agent("build", this.buildModel)));

	private Agent agent(String name, dev.agcore.model.ChatModel model) {
		return Agent.builder()
			.name(name)
			.model(model)
			.systemPrompt("You " + name + ".")
			.conversationStore(this.conversations)
			.store(this.store)
			.build();
	}

	@Test
	void turnsGoToTheAgentNamedAndAddUpTheirUsageAndCost() {
		AgentSession session = this.agents.session("s1");
		assertThat(session.turns()).isZero();
		assertThat(session.usage()).isEqualTo(Usage.EMPTY);
		assertThat(session.cost()).isNull();

		AgentResult planned = session.call("plan", "sketch it");
		AgentResult built = session.call("build", "make it");
		StepVerifier.create(session.stream("build", "again").then()).expectComplete().verify(TIMEOUT);

		assertThat(session.sessionId()).isEqualTo("s1");
		assertThat(session.turns()).isEqualTo(3);
		assertThat(session.lastAgent()).isEqualTo("build");
		// 10 tokens in for each call; out: "planned" 1, "built it" 2 twice
		assertThat(session.usage()).isEqualTo(planned.usage().plus(built.usage()).plus(built.usage()));
		assertThat(session.usage().inputTokens()).isEqualTo(30);
		assertThat(planned.cost()).isNotNull();
		assertThat(session.cost()).isEqualByComparingTo(planned.cost());
		// one conversation, switched as it went
		List<Message> history = session.history("build").block(TIMEOUT);
		assertThat(history).filteredOn(AssistantMessage.class::isInstance)
			.extracting((message) -> ((AssistantMessage) message).agent())
			.containsExactly("plan", "build", "build");
		assertThat(this.buildModel.requests().get(0).messages().get(3).text())
			.endsWith(AgentSwitch.reminder("plan", "build"));
	}

	@Test
	void aNewSessionObjectCountsOnlyItsOwnTurns() {
		this.agents.session("s1").call("plan", "sketch it");
		AgentSession again = this.agents.session("s1");
		again.call("build", "make it");

		assertThat(again.turns()).isEqualTo(1);
		assertThat(again.cost()).isNull();
		assertThat(again.history("plan").block(TIMEOUT)).hasSize(4);
	}

	@Test
	void mistakesAreRefusedNamingWhatIsWrong() {
		AgentSession session = this.agents.session("s1");
		assertThatIllegalArgumentException().isThrownBy(() -> session.invoke("deploy", "go"))
			.withMessage("No agent named 'deploy'; known agents: [plan, build]");
		assertThatIllegalArgumentException().isThrownBy(() -> session.invoke("plan", AgentRequest.of("s2", "go")))
			.withMessageContaining("session 's2', not of this session 's1'");
		assertThatIllegalArgumentException().isThrownBy(() -> this.agents.session(" "))
			.withMessageContaining("'sessionId' must not be blank");
		assertThat(session.turns()).isZero();
	}

}
