package dev.agcore.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.Retriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The llm and retrieval QA runners. */
class RunnerStylesTests {

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final List<ScoredDocument> documents = List.of(
			new ScoredDocument(new Document("d1", "Rivers", "", "The Seine flows through Paris.", java.util.Map.of()),
					0.9),
			new ScoredDocument(Document.of("d2", "Paris is the capital of France."), 0.5),
			new ScoredDocument(Document.of("d3", "Unrelated."), 0.05));

	@Test
	void llmOffersNoToolsAndKeepsTheHistory() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("first"), text("second"));
		Agent agent = Agent.builder()
			.name("chat")
			.model(model)
			.runner(Runner.LLM)
			.tool(TestTools.tool("get_weather", (args, ctx) -> "sunny"))
			.conversationStore(this.store)
			.build();

		agent.call("s1", "one");
		AgentResult result = agent.call("s1", "two");

		assertThat(result.output()).isEqualTo("second");
		assertThat(model.requests()).allSatisfy((request) -> assertThat(request.tools()).isEmpty());
		assertThat(model.requests().get(1).messages()).extracting(Message::text).containsExactly("one", "first", "two");
		assertThat(this.store.load("s1").block().messages()).hasSize(4);
	}

	@Test
	void llmStreamsItsAnswer() {
		Agent agent = Agent.builder()
			.name("chat")
			.model(ScriptedChatModel.replaying(text("Hi there.")))
			.runner(Runner.LLM)
			.build();

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "hi")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type).containsExactly("text", "text", "usage", "completed");
	}

	@Test
	void retrievalQaGivesNumberedSourcesAndListsTheCitedOnes() {
		AtomicReference<SearchRequest> searched = new AtomicReference<>();
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Paris is the capital [2], on the Seine [1]."));
		Agent agent = retrievalQa(model, (request) -> {
			searched.set(request);
			return Mono.just(this.documents);
		});

		AgentResult result = agent.call("s1", "What is the capital of France?");

		assertThat(searched.get().query()).isEqualTo("What is the capital of France?");
		assertThat(searched.get().topK()).isEqualTo(3);
		assertThat(model.requests()).singleElement().satisfies((request) -> {
			assertThat(request.tools()).isEmpty();
			assertThat(request.messages().get(0)).isInstanceOf(SystemMessage.class);
			assertThat(request.messages().get(0).text()).startsWith("Be precise.")
				.contains("cite the sources you use as [1], [2]".substring(1))
				.contains("[1] Rivers (d1)\nThe Seine flows through Paris.")
				.contains("[2] d2\nParis is the capital of France.")
				.doesNotContain("Unrelated");
		});
		assertThat(result.output()).isEqualTo(
				"Paris is the capital [2], on the Seine [1].\n\nSources:\n[1] Rivers (d1)\n[2] d2");
		assertThat(this.store.load("s1").block().messages()).last().extracting(Message::text).isEqualTo(result.output());
	}

	@Test
	void retrievalQaSaysSoWithoutCallingTheModelWhenNothingRelevantIsFound() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("never asked"));
		Agent agent = retrievalQa(model, (request) -> Mono.just(List.of(this.documents.get(2))));

		AgentResult result = agent.call("s1", "Who painted the Mona Lisa?");

		assertThat(result.output()).isEqualTo(Runner.NOTHING_FOUND);
		assertThat(model.requests()).isEmpty();
		assertThat(this.store.load("s1").block().messages()).extracting(Message::text)
			.containsExactly("Who painted the Mona Lisa?", Runner.NOTHING_FOUND);
	}

	@Test
	void retrievalQaStreamsTheAnswerThenTheSources() {
		Agent agent = retrievalQa(ScriptedChatModel.replaying(text("Paris [2].")),
				(request) -> Mono.just(this.documents));

		List<AgentEvent> events = agent.stream(AgentRequest.of("s1", "capital?"))
			.collectList()
			.block(Duration.ofSeconds(5));

		assertThat(events).extracting(AgentEvent::type).containsExactly("text", "text", "usage", "text", "completed");
		assertThat(events.get(3)).isEqualTo(new AgentEvent.TextDelta("\n\nSources:\n[2] d2"));
		List<AgentEvent> nothing = retrievalQa(ScriptedChatModel.replaying(text("never")),
				(request) -> Mono.just(List.of()))
			.stream(AgentRequest.of("s2", "capital?"))
			.collectList()
			.block(Duration.ofSeconds(5));
		assertThat(nothing).containsExactly(new AgentEvent.TextDelta(Runner.NOTHING_FOUND),
				nothing.get(nothing.size() - 1));
	}

	@Test
	void retrievalQaNeedsARetriever() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Agent.builder().name("qa").model(ScriptedChatModel.replaying()).runner(
					Runner.RETRIEVAL_QA).build())
			.withMessage("Agent 'qa': The retrieval-qa runner needs a retriever");
	}

	private Agent retrievalQa(ScriptedChatModel model, Retriever retriever) {
		return Agent.builder()
			.name("qa")
			.model(model)
			.systemPrompt("Be precise.")
			.runner(Runner.RETRIEVAL_QA)
			.retriever(retriever)
			.retrievalTopK(3)
			.retrievalMinScore(0.1)
			.tool(TestTools.tool("get_weather", (args, ctx) -> "sunny"))
			.conversationStore(this.store)
			.build();
	}

}
