package dev.agcore.chain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatOptions;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.Usage;
import dev.agcore.observation.AgentMetrics;
import dev.agcore.prompt.PromptException;
import dev.agcore.prompt.PromptTemplate;
import dev.agcore.retrieval.Document;
import dev.agcore.retrieval.KeywordRetriever;
import dev.agcore.retrieval.ScoredDocument;
import dev.agcore.retrieval.SearchRequest;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.InvalidAnswerException;
import dev.agcore.runtime.StructuredAnswers;
import dev.agcore.runtime.TestTools;
import dev.agcore.testing.ScriptedChatModel;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the steps {@link Chains} makes.
 */
class ChainsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	record Weather(@NotBlank String city, @Max(60) int celsius) {
	}

	@Test
	void aModelStepWithMetricsRecordsEachCallAsAnAgentsModelCallIs() {
		List<String> recorded = new ArrayList<>();
		AgentMetrics metrics = new AgentMetrics() {

			@Override
			public void modelCall(String provider, String requestModel, Usage usage, long durationNanos,
					@Nullable Throwable error) {
				recorded.add(provider + "/" + requestModel + " " + usage.inputTokens() + "+" + usage.outputTokens()
						+ ((error != null) ? " failed" : ""));
			}

			@Override
			public void modelFirstChunk(String provider, String requestModel, long nanos) {
				recorded.add("first chunk");
			}

		};
		ScriptedChatModel model = ScriptedChatModel.replaying(text("one"), text("two"));
		Runnable<String, String> step = Chains.model(model, ChatOptions.DEFAULTS, metrics);

		assertThat(step.invoke("a").block(Duration.ofSeconds(5))).isEqualTo("one");
		assertThat(step.stream("b").collectList().block(Duration.ofSeconds(5))).isNotEmpty();

		assertThat(recorded).hasSize(3);
		assertThat(recorded.get(0)).startsWith(model.providerName() + "/" + model.modelName() + " ");
		assertThat(recorded.get(1)).isEqualTo("first chunk");
		assertThat(recorded.get(2)).doesNotEndWith("failed");
	}

	@Test
	void aPromptStepRendersItsInputAsTheVariables() {
		Runnable<Map<String, ?>, String> prompt = Chains.prompt(PromptTemplate.compile("Hi {{name}}, {{#if vip}}welcome back{{else}}welcome{{/if}}"));

		StepVerifier.create(prompt.invoke(Map.of("name", "Ada", "vip", true)))
			.expectNext("Hi Ada, welcome back")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(prompt.name()).isEqualTo("prompt:inline");
	}

	@Test
	void aPromptStepFailsNamingAMissingVariable() {
		StepVerifier.create(Chains.prompt(PromptTemplate.compile("Hi {{name}}")).invoke(Map.of()))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(PromptException.class).hasMessageContaining("'name'"))
			.verify(TIMEOUT);
	}

	@Test
	void aModelStepSendsItsInputAsAUserMessageWithTheOptions() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Paris")).withModelName("small");
		Runnable<String, String> step = Chains.model(model, ChatOptions.builder().temperature(0.2).build());

		StepVerifier.create(step.invoke("Capital of France?")).expectNext("Paris").expectComplete().verify(TIMEOUT);

		assertThat(model.requests()).singleElement().satisfies((request) -> {
			assertThat(request.messages()).containsExactly(new UserMessage("Capital of France?"));
			assertThat(request.options().temperature()).isEqualTo(0.2);
			assertThat(request.tools()).isEmpty();
		});
		assertThat(step.name()).isEqualTo("model:scripted/small");
	}

	@Test
	void aChatStepSendsTheMessagesAndGivesTheWholeResponse() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Bonjour"));
		List<Message> messages = List.of(new SystemMessage("Answer in French."), new UserMessage("Hello"));

		StepVerifier.create(Chains.chat(model).invoke(messages)).assertNext((response) -> {
			assertThat(response.message().text()).isEqualTo("Bonjour");
			assertThat(response.usage().inputTokens()).isEqualTo(10);
		}).expectComplete().verify(TIMEOUT);
		assertThat(model.requests().get(0).messages()).isEqualTo(messages);
	}

	@Test
	void aParseStepReadsTheJsonOutOfFencesAndProse() {
		Runnable<String, Weather> parse = Chains.parse(Weather.class);

		StepVerifier.create(parse.invoke("Sure!\n```json\n{\"city\": \"Oslo\", \"celsius\": 3}\n```\nAnything else?"))
			.expectNext(new Weather("Oslo", 3))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(parse.invoke("The weather: {\"city\": \"Rome\", \"celsius\": 24}."))
			.expectNext(new Weather("Rome", 24))
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(parse.name()).isEqualTo("parse:Weather");
	}

	@Test
	void aParseStepFailsWithTheValidationErrors() {
		StepVerifier.create(Chains.parse(Weather.class).invoke("{\"city\": \"\", \"celsius\": 99}"))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).isInstanceOf(InvalidAnswerException.class)
					.hasMessage("The answer is no valid Weather: 'celsius' must be less than or equal to 60; "
							+ "'city' must not be blank; answer was: {\"city\": \"\", \"celsius\": 99}");
				assertThat(((InvalidAnswerException) ex).problem())
					.isEqualTo("'celsius' must be less than or equal to 60; 'city' must not be blank");
			})
			.verify(TIMEOUT);
	}

	@Test
	void aParseStepFailsOnTextThatIsNoJson() {
		StepVerifier.create(Chains.parse(Weather.class).invoke("It is sunny."))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(InvalidAnswerException.class)
				.hasMessageStartingWith("The answer is no valid Weather: the answer is not valid JSON for Weather")
				.hasMessageEndingWith("answer was: It is sunny."))
			.verify(TIMEOUT);
	}

	@Test
	void promptModelAndParseMakeATypedChain() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text(
				request.messages().get(0).text().contains("Oslo") ? "{\"city\":\"Oslo\",\"celsius\":3}" : "no idea"));
		Runnable<Map<String, ?>, Weather> forecast = Chains.prompt(PromptTemplate.compile("Weather in {{city}}? {{format}}"))
			.pipe(Chains.model(model))
			.pipe(Chains.parse(Weather.class));

		StepVerifier.create(forecast.invoke(Map.of("city", "Oslo", "format", StructuredAnswers.instructions(Weather.class))))
			.expectNext(new Weather("Oslo", 3))
			.expectComplete()
			.verify(TIMEOUT);
		// the schema reaches the model as written, not HTML-escaped
		assertThat(model.requests().get(0).messages().get(0).text())
			.isEqualTo("Weather in Oslo? " + StructuredAnswers.instructions(Weather.class))
			.contains("\"celsius\"");
	}

	@Test
	void aTextStepStripsWhiteSpace() {
		StepVerifier.create(Chains.text().invoke("\n  answer \t\n")).expectNext("answer").expectComplete().verify(TIMEOUT);
	}

	@Test
	void aRetrieverStepSearchesForItsInput() {
		KeywordRetriever retriever = KeywordRetriever.of(List.of(Document.of("tea", "Green tea is brewed at 80 degrees."),
				Document.of("coffee", "Coffee is brewed at 93 degrees."),
				Document.of("green", "Green tea and green coffee beans.")));

		StepVerifier.create(Chains.retriever(retriever, 1).invoke("green tea"))
			.expectNext(retriever.search(SearchRequest.of("green tea").withTopK(1)))
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(Chains.retriever(retriever, 5).invoke("green tea"))
			.assertNext((found) -> assertThat(found).extracting(ScoredDocument::document)
				.extracting(Document::id)
				.containsExactlyInAnyOrder("tea", "green"))
			.expectComplete()
			.verify(TIMEOUT);
	}

	@Test
	void anAgentStepRunsEachTurnInANewSession() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("four"), text("six"));
		Agent agent = Agent.builder().name("calc").model(model).build();
		Runnable<String, String> step = Chains.agent(agent);

		StepVerifier.create(step.invoke("2+2?")).expectNext("four").expectComplete().verify(TIMEOUT);
		StepVerifier.create(step.invoke("3+3?")).expectNext("six").expectComplete().verify(TIMEOUT);

		// the second turn does not see the first
		assertThat(model.requests().get(1).messages()).extracting(Message::text).containsExactly("3+3?");
		assertThat(step.name()).isEqualTo("agent:calc");
	}

	@Test
	void anAgentStepInAGivenSessionContinuesTheConversation() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("four"), text("eight"));
		Runnable<String, String> step = Chains.agent(Agent.builder().name("calc").model(model).build(), "s1");

		StepVerifier.create(step.invoke("2+2?")).expectNext("four").expectComplete().verify(TIMEOUT);
		StepVerifier.create(step.invoke("times two?")).expectNext("eight").expectComplete().verify(TIMEOUT);

		assertThat(model.requests().get(1).messages()).extracting(Message::text)
			.containsExactly("2+2?", "four", "times two?");
	}

	@Test
	void anAgentStepFailsWhenTheTurnEndsWithoutAnAnswer() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> toolCalls(
				new ToolCall("c" + request.messages().size(), "again", "{}")));
		Agent agent = Agent.builder().name("looper").model(model).maxIterations(2)
			.tool(TestTools.tool("again", (arguments, context) -> "again")).build();

		StepVerifier.create(Chains.agent(agent, "s1").invoke("loop"))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(ChainException.class)
				.hasMessage("Agent 'looper' ended its turn max_iterations_reached without an answer (session 's1')"))
			.verify(TIMEOUT);
	}

	@Test
	void aStreamingStepEmitsThePiecesAndInvokeJoinsThem() {
		Runnable<String, String> spell = Chains.streaming((String word) -> Flux.fromArray(word.split("")));

		StepVerifier.create(spell.stream("abc")).expectNext("a", "b", "c").expectComplete().verify(TIMEOUT);
		StepVerifier.create(spell.invoke("abc")).expectNext("abc").expectComplete().verify(TIMEOUT);
	}

	@Test
	void aReactiveFunctionThatReturnsNullFailsNamingTheStep() {
		Runnable<String, String> broken = Chains.<String, String>reactive((text) -> null).named("broken");

		StepVerifier.create(broken.invoke("x"))
			.expectErrorMessage("Chain step 'broken' returned null instead of a publisher")
			.verify(TIMEOUT);
	}

	@Test
	void aChatResponseStepCanBeMappedOnInAChain() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok"));
		Runnable<List<Message>, String> chain = Chains.chat(model)
			.pipe((ChatResponse response) -> Mono.just(response.finishReason().name()));

		StepVerifier.create(chain.invoke(List.of(new UserMessage("hi")))).expectNext("STOP").expectComplete().verify(TIMEOUT);
	}

}
