package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ModelCallLimitMiddlewareTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final AtomicInteger toolCalls = new AtomicInteger();

	/** A model that never stops calling tools. */
	private final ScriptedChatModel looping = ScriptedChatModel
		.answering((request) -> toolCalls(new ToolCall("c" + request.messages().size(), "work", "{}")));

	@Test
	void perTurnLimitWithEndEndsTheTurnWithAFinalAnswerNamingTheLimit() {
		Agent agent = agent(this.looping,
				ModelCallLimitMiddleware.builder().perTurn(2).meterRegistry(this.registry).build());

		AgentResult result = agent.call("s", "go");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output()).isEqualTo("Agent 'limited' reached its model call limit (2 per turn) and stopped.");
		assertThat(this.looping.requests()).hasSize(2);
		assertThat(this.toolCalls).hasValue(2);
		List<Message> stored = this.store.load("s").block().messages();
		assertThat(stored).extracting(Message::role)
			.extracting(Enum::name)
			.containsExactly("USER", "ASSISTANT", "TOOL", "ASSISTANT", "TOOL", "ASSISTANT");
		BuiltinTestTools.assertWellFormed(stored);
		assertThat(this.registry.get("agent.limit.exceeded")
			.tags("agent", "limited", "limit", "model_calls_per_turn")
			.counter()
			.count()).isEqualTo(1);
	}

	@Test
	void errorToModelLetsTheModelAnswerOnceMoreWithoutTools() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> request.tools().isEmpty()
				? text("Summary: the work is half done.")
				: toolCalls(new ToolCall("c" + request.messages().size(), "work", "{}")));
		Agent agent = agent(model,
				ModelCallLimitMiddleware.builder().perTurn(1).exitBehavior(ExitBehavior.ERROR_TO_MODEL).build());

		AgentResult result = agent.call("s", "go");

		assertThat(result.isCompleted()).isTrue();
		assertThat(result.output()).isEqualTo("Summary: the work is half done.");
		assertThat(model.requests()).hasSize(2);
		assertThat(model.requests().get(1).tools()).isEmpty();
		assertThat(model.requests().get(1).messages()).last()
			.extracting(Message::text)
			.asString()
			.contains("model call limit of this turn (1) is reached");
		BuiltinTestTools.assertWellFormed(this.store.load("s").block().messages());
	}

	@Test
	void errorToModelEndsTheTurnIfTheModelStillAsksForTools() {
		Agent agent = agent(this.looping,
				ModelCallLimitMiddleware.builder().perTurn(1).exitBehavior(ExitBehavior.ERROR_TO_MODEL).build());

		AgentResult result = agent.call("s", "go");

		assertThat(result.output()).contains("model call limit (1 per turn)");
		assertThat(this.looping.requests()).hasSize(2);
	}

	@Test
	void perTurnLimitWithFailFailsTheTurnAndStoresNothing() {
		Agent agent = agent(this.looping, ModelCallLimitMiddleware.builder().perTurn(2)
			.exitBehavior(ExitBehavior.FAIL)
			.meterRegistry(this.registry)
			.build());

		assertThatExceptionOfType(LimitExceededException.class).isThrownBy(() -> agent.call("s", "go"))
			.withMessage("Agent 'limited' reached its model call limit (2 per turn) and stopped.")
			.satisfies((ex) -> {
				assertThat(ex.limit()).isEqualTo("model_calls_per_turn");
				assertThat(ex.max()).isEqualTo(2);
			});
		assertThat(this.store.load("s").block().messages()).isEmpty();
		assertThat(this.registry.get("agent.limit.exceeded").counter().count()).isEqualTo(1);
	}

	@Test
	void failOnTheStreamPathEndsWithAnErrorEvent() {
		Agent agent = agent(this.looping,
				ModelCallLimitMiddleware.builder().perTurn(1).exitBehavior(ExitBehavior.FAIL).build());

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "go")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).last()
			.isEqualTo(new AgentEvent.Failed("LimitExceededException",
					"Agent 'limited' reached its model call limit (1 per turn) and stopped."));
	}

	@Test
	void endOnTheStreamPathCompletesWithTheLimitMessage() {
		Agent agent = agent(this.looping, ModelCallLimitMiddleware.builder().perTurn(1).build());

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "go")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).last()
			.isInstanceOfSatisfying(AgentEvent.Completed.class,
					(completed) -> assertThat(completed.result().output()).contains("(1 per turn)"));
	}

	@Test
	void perSessionLimitCountsAcrossTurnsAndSessionsAreSeparate() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("answer"));
		ModelCallLimitMiddleware limit = ModelCallLimitMiddleware.builder()
			.perSession(2)
			.meterRegistry(this.registry)
			.build();
		Agent agent = agent(model, limit);

		assertThat(agent.call("s", "one").output()).isEqualTo("answer");
		assertThat(agent.call("s", "two").output()).isEqualTo("answer");
		assertThat(agent.call("s", "three").output())
			.isEqualTo("Agent 'limited' reached its model call limit (2 per session) and stopped.");
		assertThat(agent.call("other", "one").output()).isEqualTo("answer");

		assertThat(model.requests()).hasSize(3);
		assertThat(limit.sessionCount("s")).isEqualTo(2);
		assertThat(this.registry.get("agent.limit.exceeded")
			.tags("limit", "model_calls_per_session")
			.counter()
			.count()).isEqualTo(1);
		limit.resetSession("s");
		assertThat(agent.call("s", "four").output()).isEqualTo("answer");
	}

	@Test
	void leastRecentlyUsedSessionsAreForgottenBeyondMaxSessions() {
		ModelCallLimitMiddleware limit = ModelCallLimitMiddleware.builder().perSession(1).maxSessions(2).build();
		Agent agent = agent(ScriptedChatModel.answering((request) -> text("answer")), limit);

		agent.call("a", "hi");
		agent.call("b", "hi");
		agent.call("c", "hi");

		assertThat(limit.sessionCount("a")).isZero();
		assertThat(limit.sessionCount("c")).isEqualTo(1);
	}

	@Test
	void builderRejectsInvalidSettingsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelCallLimitMiddleware.builder().perTurn(0))
			.withMessage("'perTurn' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ModelCallLimitMiddleware.builder().perSession(-1))
			.withMessage("'perSession' must be at least 1, was -1");
		assertThatIllegalStateException().isThrownBy(() -> ModelCallLimitMiddleware.builder().build())
			.withMessage("'perTurn' or 'perSession' must be set");
	}

	private Agent agent(ScriptedChatModel model, ModelCallLimitMiddleware limit) {
		return Agent.builder()
			.name("limited")
			.model(model)
			.conversationStore(this.store)
			.tool(BuiltinTestTools.counting("work", this.toolCalls))
			.middleware(limit)
			.build();
	}

}
