package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.UserMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.runtime.AgentEvent;
import dev.agcore.runtime.AgentRequest;
import dev.agcore.runtime.AgentResult;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class PiiRedactionMiddlewareTests {

	private static final String AWS_KEY = "AKIAIOSFODNN7EXAMPLE";

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	@Test
	void redactsUserInputInWhatTheModelReceivesAndWhatIsStored() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("noted"));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().build());

		agent.call("s", "Mail jane.doe@example.com or call +1 415-555-0132; card 4111 1111 1111 1111, key "
				+ "sk-proj-abcdefghijklmnopqrstuvwxyz123456.");

		String expected = "Mail [REDACTED_EMAIL] or call [REDACTED_PHONE]; card [REDACTED_CREDIT_CARD], key "
				+ "[REDACTED_API_KEY].";
		assertThat(model.requests().get(0).messages()).extracting(Message::text).containsExactly(expected);
		assertThat(this.store.load("s").block().messages()).extracting(Message::text).containsExactly(expected, "noted");
	}

	@Test
	void masksModelOutputInTheResultAndWhatIsStored() {
		ScriptedChatModel model = ScriptedChatModel
			.replaying(text("Card 4111-1111-1111-1111 and phone (415) 555-0132 are on file, jane@example.com."));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().mask(PiiType.values()).build());

		AgentResult result = agent.call("s", "what do you have?");

		String expected = "Card ****1111 and phone ****0132 are on file, ****@example.com.";
		assertThat(result.output()).isEqualTo(expected);
		assertThat(this.store.load("s").block().messages()).extracting(Message::text).containsExactly("what do you have?", expected);
	}

	@Test
	void streamedTextNeverCarriesTheRawValue() {
		ScriptedChatModel model = ScriptedChatModel.replaying(ScriptedChatModel.text("Write to jane.doe@example.com today"));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().build());

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "who?")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).filteredOn(AgentEvent.TextDelta.class::isInstance)
			.singleElement()
			.isEqualTo(new AgentEvent.TextDelta("Write to [REDACTED_EMAIL] today"));
		assertThat(events.toString()).doesNotContain("jane.doe");
	}

	@Test
	void blockFailsTheTurnNamingTheTypeAndNeverTheValue() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("never"));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().block(PiiType.API_KEY).redact(PiiType.EMAIL).build());

		assertThatExceptionOfType(PiiDetectedException.class)
			.isThrownBy(() -> agent.call("s", "my key is " + AWS_KEY + ", mail me at a@b.io"))
			.withMessage("The user's message contains an API key; the turn was blocked by the PII policy")
			.satisfies((ex) -> assertThat(ex.type()).isEqualTo(PiiType.API_KEY));
		assertThat(model.requests()).isEmpty();
		assertThat(this.store.load("s").block().messages()).isEmpty();
	}

	@Test
	void blockOfModelOutputEndsTheStreamWithAnErrorEvent() {
		ScriptedChatModel model = ScriptedChatModel.replaying(text("Your card is 5555 5555 5555 4444."));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().block(PiiType.CREDIT_CARD).build());

		List<AgentEvent> events = agent.stream(AgentRequest.of("s", "card?")).collectList().block(Duration.ofSeconds(5));

		assertThat(events).last()
			.isEqualTo(new AgentEvent.Failed("PiiDetectedException",
					"The model's answer contains a credit card number; the turn was blocked by the PII policy"));
		assertThat(this.store.load("s").block().messages()).isEmpty();
	}

	@Test
	void olderHistoryIsRedactedInTheRequestEvenWhenTheTypeIsBlocked() {
		this.store.append("s", 0, List.of(new UserMessage("I am bob@example.com"), AssistantMessage.of("Hi bob@example.com")))
			.block();
		ScriptedChatModel model = ScriptedChatModel.replaying(text("hello again"));
		Agent agent = agent(model, PiiRedactionMiddleware.builder().block(PiiType.EMAIL).build());

		agent.call("s", "hi");

		assertThat(model.requests().get(0).messages()).extracting(Message::text)
			.containsExactly("I am [REDACTED_EMAIL]", "Hi [REDACTED_EMAIL]", "hi");
	}

	@Test
	void toolResultsAreRedactedWhenSwitchedOn() {
		ScriptedChatModel model = ScriptedChatModel.replaying(toolCalls(new ToolCall("c1", "crm", "{}")),
				text("found"));
		Agent agent = Agent.builder()
			.name("private")
			.model(model)
			.conversationStore(this.store)
			.tool(BuiltinTestTools.tool("crm", (args, ctx) -> "Bob, bob@example.com, +44 20 7946 0958"))
			.middleware(PiiRedactionMiddleware.builder().toolResults(true).build())
			.build();

		agent.call("s", "find bob");

		String expected = "Bob, [REDACTED_EMAIL], [REDACTED_PHONE]";
		assertThat(model.requests().get(1).messages()).last().extracting(Message::text).isEqualTo(expected);
		assertThat(this.store.load("s").block().messages()).extracting(Message::text).contains(expected);
	}

	@Test
	void leavesTextWithoutPiiAlone() {
		PiiDetector detector = new PiiDetector(Map.of(PiiType.EMAIL, PiiStrategy.REDACT, PiiType.PHONE,
				PiiStrategy.REDACT, PiiType.CREDIT_CARD, PiiStrategy.REDACT, PiiType.API_KEY, PiiStrategy.REDACT));
		String text = "Order 12345 shipped on 2024-01-15 from 192.168.10.20 for 10 000 000 units; "
				+ "card 4111 1111 1111 1112 fails Luhn; token: documentation-for-everyone; commit "
				+ "9fceb02d0ae598e95dc970b74767f19372d61af8; version 1.2.3.";

		assertThat(detector.apply(text, "test")).isSameAs(text);
	}

	@Test
	void findsKeysAfterTellingWordsAndReplacesOnlyTheValue() {
		PiiDetector detector = new PiiDetector(Map.of(PiiType.API_KEY, PiiStrategy.MASK));

		assertThat(detector.apply("api_key=\"a1b2c3d4e5f6g7h8i9j0\" and Authorization: Bearer eyJhbGciOiJIUzI1NiJ9xyz",
				null))
			.isEqualTo("api_key=\"****i9j0\" and Authorization: Bearer ****9xyz");
		assertThat(detector.apply("ghp_" + "a1".repeat(18) + " xoxb-1234567890-abcdef", null))
			.isEqualTo("****a1a1 ****cdef");
	}

	@Test
	void luhnAcceptsValidCardNumbersOnly() {
		assertThat(PiiDetector.luhn("4111111111111111")).isTrue();
		assertThat(PiiDetector.luhn("378282246310005")).isTrue();
		assertThat(PiiDetector.luhn("4111111111111112")).isFalse();
		assertThat(PiiDetector.luhn("411111111111")).isFalse();
	}

	@Test
	void builderNeedsSomethingToCheck() {
		assertThatIllegalStateException()
			.isThrownBy(() -> PiiRedactionMiddleware.builder().input(false).output(false).build())
			.withMessage("at least one of 'input', 'output' and 'toolResults' must be on");
	}

	private Agent agent(ScriptedChatModel model, PiiRedactionMiddleware pii) {
		return Agent.builder().name("private").model(model).conversationStore(this.store).middleware(pii).build();
	}

}
