package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.List;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ContextLengthExceededException;
import dev.agcore.model.ModelAuthenticationException;
import dev.agcore.model.ModelRateLimitException;
import dev.agcore.model.ModelServerException;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ModelFallbackMiddlewareTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ScriptedChatModel primary = ScriptedChatModel.answering((request) -> {
		throw new ModelServerException("scripted", 503, "overloaded");
	}).withModelName("main");

	@Test
	void switchesToTheNextModelsInOrderAndRecordsEachSwitch() {
		ScriptedChatModel rateLimited = ScriptedChatModel.answering((request) -> {
			throw new ModelRateLimitException("scripted", "slow down", null);
		}).withModelName("backup");
		ScriptedChatModel cheap = ScriptedChatModel.answering((request) -> text("from cheap")).withModelName("cheap");
		Agent agent = agent(ModelFallbackMiddleware.builder(rateLimited, cheap)
			.primary(this.primary)
			.meterRegistry(this.registry)
			.build());

		AgentResult result = agent.call("s", "hi");

		assertThat(result.output()).isEqualTo("from cheap");
		assertThat(rateLimited.requests()).hasSize(1);
		assertThat(cheap.requests()).singleElement()
			.satisfies((request) -> assertThat(request.messages()).extracting("text").containsExactly("hi"));
		assertThat(fallbacks("scripted/main", "scripted/backup")).isEqualTo(1);
		assertThat(fallbacks("scripted/backup", "scripted/cheap")).isEqualTo(1);
	}

	@Test
	void theWholeToolLoopGoesOnWithTheFallback() {
		ScriptedChatModel backup = ScriptedChatModel
			.replaying(toolCalls(new ToolCall("c1", "echo", "{}")), text("done"))
			.withModelName("backup");
		Agent agent = Agent.builder()
			.name("resilient")
			.model(this.primary)
			.tool(BuiltinTestTools.tool("echo", (args, ctx) -> "echoed"))
			.middleware(ModelFallbackMiddleware.builder(backup).meterRegistry(this.registry).build())
			.build();

		AgentResult result = agent.call("s", "hi");

		assertThat(result.output()).isEqualTo("done");
		assertThat(this.primary.requests()).hasSize(2);
		assertThat(fallbacks("scripted/primary", "scripted/backup")).isEqualTo(2);
	}

	@Test
	void aFailureThatIsNotRetryableIsNotFallenBackOn() {
		ScriptedChatModel denied = ScriptedChatModel.answering((request) -> {
			throw new ModelAuthenticationException("scripted", 401, "bad key");
		});
		ScriptedChatModel backup = ScriptedChatModel.answering((request) -> text("never"));
		Agent agent = Agent.builder()
			.name("resilient")
			.model(denied)
			.middleware(ModelFallbackMiddleware.builder(backup).build())
			.build();

		assertThatExceptionOfType(ModelAuthenticationException.class).isThrownBy(() -> agent.call("s", "hi"));
		assertThat(backup.requests()).isEmpty();
	}

	@Test
	void configuredFailureTypesAreFallenBackOnToo() {
		ScriptedChatModel small = ScriptedChatModel.answering((request) -> {
			throw new ContextLengthExceededException("scripted", 400, "too long", null);
		});
		ScriptedChatModel large = ScriptedChatModel.answering((request) -> text("from large"));
		Agent agent = Agent.builder()
			.name("resilient")
			.model(small)
			.middleware(
					ModelFallbackMiddleware.builder(large).fallbackOn(ContextLengthExceededException.class).build())
			.build();

		assertThat(agent.call("s", "hi").output()).isEqualTo("from large");
	}

	@Test
	void whenEveryModelFailsTheLastFailureCarriesTheEarlierOnes() {
		ScriptedChatModel alsoDown = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("scripted", 502, "bad gateway");
		});
		Agent agent = agent(ModelFallbackMiddleware.builder(alsoDown).build());

		assertThatExceptionOfType(ModelServerException.class).isThrownBy(() -> agent.call("s", "hi"))
			.withMessage("bad gateway")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).filteredOn(ModelServerException.class::isInstance)
				.extracting(Throwable::getMessage)
				.containsExactly("overloaded"));
	}

	@Test
	void theFallbackUsesItsOwnModelRatherThanTheRequestOverride() {
		ScriptedChatModel backup = ScriptedChatModel.answering((request) -> text("ok"));
		Agent agent = Agent.builder()
			.name("resilient")
			.model(this.primary)
			.options(new ChatOptions("main-2025", 0.2, 100))
			.middleware(ModelFallbackMiddleware.builder(backup).build())
			.build();

		agent.call("s", "hi");

		assertThat(backup.requests()).singleElement()
			.extracting((request) -> request.options())
			.isEqualTo(new ChatOptions(null, 0.2, 100));
	}

	@Test
	void fallsBackOnTheStreamPathToo() {
		ScriptedChatModel backup = ScriptedChatModel.answering((request) -> text("streamed fallback"));
		Agent agent = agent(ModelFallbackMiddleware.builder(backup).build());

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).last()
			.isInstanceOfSatisfying(AgentEvent.Completed.class,
					(completed) -> assertThat(completed.result().output()).isEqualTo("streamed fallback"));
	}

	@Test
	void textStreamedBeforeThePrimaryFailedIsResetBeforeTheFallbacksAnswer() {
		ChatModel breaksMidway = new ChatModel() {

			@Override
			public Mono<ChatResponse> call(ChatRequest request) {
				return Mono.error(new IllegalStateException("streamed only"));
			}

			@Override
			public Flux<ChatChunk> stream(ChatRequest request) {
				return Flux.just(ChatChunk.text("The answer "), ChatChunk.text("is "))
					.concatWith(Flux.error(new ModelServerException("scripted", 503, "connection reset")));
			}

		};
		ScriptedChatModel backup = ScriptedChatModel.answering((request) -> text("Backup answer."));
		InMemoryConversationStore store = new InMemoryConversationStore();
		Agent agent = Agent.builder()
			.name("resilient")
			.model(breaksMidway)
			.conversationStore(store)
			.middleware(ModelFallbackMiddleware.builder(backup).build())
			.build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type)
			.containsExactly("text", "text", "text_reset", "text", "usage", "completed");
		assertThat(events.get(3)).isEqualTo(new AgentEvent.TextDelta("Backup answer."));
		String shown = textAfterLastReset(events);
		assertThat(shown).isEqualTo("Backup answer.")
			.isEqualTo(((AgentEvent.Completed) events.get(events.size() - 1)).result().output());
		assertThat(store.load("s").block().messages()).last().extracting(Message::text).isEqualTo(shown);
	}

	@Test
	void builderNeedsAtLeastOneFallback() {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelFallbackMiddleware.builder())
			.withMessage("'fallbacks' must name at least one model");
	}

	private Agent agent(ModelFallbackMiddleware fallback) {
		return Agent.builder().name("resilient").model(this.primary).middleware(fallback).build();
	}

	private static String textAfterLastReset(List<AgentEvent> events) {
		StringBuilder text = new StringBuilder();
		for (AgentEvent event : events) {
			if (event instanceof AgentEvent.TextReset) {
				text.setLength(0);
			}
			else if (event instanceof AgentEvent.TextDelta delta) {
				text.append(delta.text());
			}
		}
		return text.toString();
	}

	private double fallbacks(String from, String to) {
		return this.registry.get("agent.model.fallbacks")
			.tags("agent", "resilient", "from", from, "to", to)
			.counter()
			.count();
	}

}
