package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.ToolCall;
import dev.agcore.middleware.approval.HumanInTheLoopMiddleware;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.FinishReason;
import dev.agcore.model.ModelAdapter;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ToolChoice;
import dev.agcore.model.Usage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for per-request options, model choice by name, reasoning and model adapters in
 * the agent loop.
 */
class AgentRequestOptionsTests {

	@Test
	void requestOptionsReachTheModelOverTheAgentsOwn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		Agent agent = Agent.builder()
			.model(model)
			.options(ChatOptions.builder().temperature(0.9).maxTokens(500).seed(7L).build())
			.build();

		agent.call(AgentRequest.of("s1", "hi").withOptions(ChatOptions.builder().temperature(0.1).maxTokens(20).build()));

		assertThat(model.requests().get(0).options())
			.isEqualTo(ChatOptions.builder().temperature(0.1).maxTokens(20).seed(7L).build());
	}

	@Test
	void aRequestChoosesAnAllowedModelByNameWhichIsCalledWithItsOwnName() {
		ScriptedChatModel main = ScriptedChatModel.replaying();
		ScriptedChatModel cheap = ScriptedChatModel.replaying(text("cheap answer")).withModelName("mini");
		Agent agent = Agent.builder()
			.model(main)
			.options(ChatOptions.builder().model("big-model").temperature(0.5).build())
			.models(Map.of("cheap", cheap))
			.build();

		AgentResult result = agent
			.call(AgentRequest.of("s1", "hi").withOptions(ChatOptions.builder().model("cheap").build()));

		assertThat(result.output()).isEqualTo("cheap answer");
		assertThat(main.requests()).isEmpty();
		assertThat(cheap.requests().get(0).options()).isEqualTo(ChatOptions.builder().temperature(0.5).build());
	}

	@Test
	void aModelNotAllowedFailsBeforeAnyModelCallNamingTheAllowedOnes() {
		ScriptedChatModel main = ScriptedChatModel.replaying(text("never"));
		Agent agent = Agent.builder()
			.name("helper")
			.model(main)
			.models(Map.of("fast", main, "smart", main))
			.build();

		assertThatExceptionOfType(ModelNotAllowedException.class)
			.isThrownBy(() -> agent
				.call(AgentRequest.of("s1", "hi").withOptions(ChatOptions.builder().model("gpt-9").build())))
			.withMessage("Agent 'helper' may not use model 'gpt-9'; allowed models: [fast, smart]")
			.satisfies((ex) -> {
				assertThat(ex.code()).isEqualTo("model_not_allowed");
				assertThat(ex.allowed()).containsExactly("fast", "smart");
			});
		assertThat(main.requests()).isEmpty();
		assertThat(agent.history("s1").block()).isEmpty();
	}

	@Test
	void aResumedTurnRunsWithTheOptionsOfTheResumeRequest() {
		ScriptedChatModel main = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "delete", "{}")));
		ScriptedChatModel cheap = ScriptedChatModel.replaying(text("deleted"));
		Agent agent = Agent.builder()
			.model(main)
			.models(Map.of("cheap", cheap))
			.tool(TestTools.tool("delete", (args, ctx) -> "ok"))
			.middleware(HumanInTheLoopMiddleware.forTools(Set.of("delete")))
			.build();
		assertThat(agent.call("s1", "delete it").isInterrupted()).isTrue();
		ResumeRequest approve = ResumeRequest.of("s1", Map.of("c1", ToolDecision.approve()));

		assertThatExceptionOfType(ModelNotAllowedException.class).isThrownBy(() -> agent
			.resume(approve.withOptions(ChatOptions.builder().model("gpt-9").build()))
			.block(Duration.ofSeconds(5)));
		// refused before the claim: the turn still waits, and the decided call did not run
		AgentResult resumed = agent
			.resume(approve.withOptions(ChatOptions.builder().model("cheap").temperature(0.1).build()))
			.block(Duration.ofSeconds(5));

		assertThat(resumed.output()).isEqualTo("deleted");
		assertThat(resumed.toolExecutions()).extracting(ToolExecution::result).containsExactly("ok");
		assertThat(cheap.requests().get(0).options()).isEqualTo(ChatOptions.builder().temperature(0.1).build());
		assertThat(main.requests()).hasSize(1);
	}

	@Test
	void aForcedToolChoiceHoldsForTheFirstModelCallOnly() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(toolCalls(new ToolCall("c1", "lookup", "{}")), text("done"));
		Agent agent = Agent.builder().model(model).tool(TestTools.tool("lookup", (args, ctx) -> "found")).build();

		agent.call(AgentRequest.of("s1", "go")
			.withOptions(ChatOptions.builder().toolChoice(ToolChoice.tool("lookup")).temperature(0.3).build()));

		assertThat(model.requests().get(0).options().toolChoice()).isEqualTo(ToolChoice.tool("lookup"));
		assertThat(model.requests().get(1).options())
			.isEqualTo(ChatOptions.builder().temperature(0.3).build());
	}

	@Test
	void forcingAToolTheAgentDoesNotHaveFailsBeforeAnyModelCall() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("never"));
		Agent agent = Agent.builder().model(model).tool(TestTools.tool("lookup", (args, ctx) -> "found")).build();

		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> agent.call(AgentRequest.of("s1", "go")
				.withOptions(ChatOptions.builder().toolChoice(ToolChoice.tool("delete")).build())))
			.withMessageContaining("has no tool 'delete'");
		assertThat(model.requests()).isEmpty();
	}

	@Test
	void streamedReasoningIsItsOwnEventAndIsStoredApartFromTheText() {
		ChatResponse thinking = new ChatResponse(new AssistantMessage("Paris.", List.of(),
				List.of(new Reasoning("The capital of France", "sig-1", null)), null), Usage.of(5, 5),
				FinishReason.STOP, "scripted");
		ScriptedChatModel model = ScriptedChatModel.replaying(thinking);
		Agent agent = Agent.builder().model(model).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "Capital?")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).filteredOn(AgentEvent.ReasoningDelta.class::isInstance)
			.extracting((event) -> ((AgentEvent.ReasoningDelta) event).text())
			.containsExactly("The capita", "l of France");
		assertThat(events).filteredOn(AgentEvent.TextDelta.class::isInstance)
			.extracting((event) -> ((AgentEvent.TextDelta) event).text())
			.containsExactly("Paris.");
		AgentResult result = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		assertThat(result.output()).isEqualTo("Paris.");
		assertThat(result.reasoning()).isEqualTo("The capital of France");
		Message stored = agent.history("s1").block().get(1);
		assertThat(((AssistantMessage) stored).reasoning())
			.containsExactly(new Reasoning("The capital of France", "sig-1", null));
	}

	@Test
	void thinkBlocksInPlainTextAreSplitOutWhenStreamedAndWhenCalled() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("<think>2 plus 2 is 4</think>\n\nFour."));
		Agent agent = Agent.builder().model(model).build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "2+2?")).collectList().block(Duration.ofSeconds(5));
		AgentResult called = agent.call("s2", "2+2?");

		assertThat(events).filteredOn(AgentEvent.TextDelta.class::isInstance)
			.extracting((event) -> ((AgentEvent.TextDelta) event).text())
			.containsExactly("Four.");
		assertThat(events).filteredOn(AgentEvent.ReasoningDelta.class::isInstance)
			.extracting((event) -> ((AgentEvent.ReasoningDelta) event).text())
			.containsExactly("2 ", "plus ", "2 ", "is ", "4");
		AgentResult streamed = ((AgentEvent.Completed) events.get(events.size() - 1)).result();
		for (AgentResult result : List.of(streamed, called)) {
			assertThat(result.output()).isEqualTo("Four.");
			assertThat(result.reasoning()).isEqualTo("2 plus 2 is 4");
		}
	}

	@Test
	void modelAdaptersApplyBeforeEveryModelCall() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok")).withModelName("o3-mini");
		ModelAdapter tagging = new ModelAdapter() {

			@Override
			public boolean supports(String provider, String modelName) {
				return provider.equals("scripted") && modelName.equals("o3-mini");
			}

			@Override
			public ChatRequest adapt(ChatRequest request) {
				return new ChatRequest(request.messages(), request.tools(),
						request.options().mutate().seed(42L).build());
			}

		};
		Agent agent = Agent.builder()
			.model(model)
			.options(ChatOptions.builder().temperature(0.7).build())
			.modelAdapters(List.of(dev.agcore.model.ModelAdapters.reasoningSampling(), tagging))
			.build();

		agent.call("s1", "hi");

		// o3-mini takes no temperature; the own adapter ran after the built-in
		assertThat(model.requests().get(0).options()).isEqualTo(ChatOptions.builder().seed(42L).build());
	}

}
