package dev.agcore.middleware.builtin;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelServerException;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SummarizationMiddlewareTests {

	private static final TokenEstimator TOKENS = TokenEstimator.CHARS_PER_TOKEN;

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final AtomicInteger summaries = new AtomicInteger();

	private final ScriptedChatModel summarizer = ScriptedChatModel
		.answering((request) -> text("SUMMARY " + this.summaries.incrementAndGet()));

	@Test
	void replacesOlderMessagesWithASummaryAndShrinksTheStoredConversationInTheSameTurn() {
		AtomicInteger answers = new AtomicInteger();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok " + answers.incrementAndGet()));
		Agent agent = agent(model, 100, 2);

		agent.call("s", question(1));
		agent.call("s", question(2));
		assertThat(this.summaries).as("under the threshold or too short to cut").hasValue(0);
		agent.call("s", question(3));

		List<Message> third = model.requests().get(2).messages();
		assertThat(third).extracting(Message::text).containsExactly(summary(1), "ok 2", question(3));
		assertThat(this.summarizer.requests()).singleElement().satisfies((request) -> {
			assertThat(request.messages().get(0)).isEqualTo(new SystemMessage(SummarizationMiddleware.DEFAULT_PROMPT));
			assertThat(request.messages().get(1).text()).isEqualTo(
					"User: " + question(1) + "\n\nAssistant: ok 1\n\nUser: " + question(2));
		});
		assertThat(this.store.load("s").block().messages()).as("the turn that summarized stored the short conversation")
			.extracting(Message::text)
			.containsExactly(summary(1), "ok 2", question(3), "ok 3");

		agent.call("s", question(4));

		assertThat(model.requests().get(3).messages()).extracting(Message::text)
			.containsExactly(summary(2), "ok 3", question(4));
		assertThat(this.store.load("s").block().messages()).extracting(Message::text)
			.containsExactly(summary(2), "ok 3", question(4), "ok 4");
	}

	@Test
	void neverSeparatesAToolCallFromItsResults() {
		String result = "r".repeat(200);
		ScriptedChatModel model = ScriptedChatModel.replaying(text("ok 0"),
				toolCalls(new ToolCall("c1", "lookup", "{}"), new ToolCall("c2", "lookup", "{}")),
				toolCalls(new ToolCall("c3", "lookup", "{}")), text("done"), text("three"));
		Agent agent = Agent.builder()
			.name("summarizing")
			.model(model)
			.systemPrompt("Be helpful.")
			.conversationStore(this.store)
			.tool(BuiltinTestTools.tool("lookup", (args, ctx) -> result))
			.middleware(middleware(100, 2))
			.build();

		agent.call("s", question(0));
		agent.call("s", question(1));

		List<ChatRequest> requests = model.requests();
		requests.forEach((request) -> BuiltinTestTools.assertWellFormed(request.messages()));
		assertThat(requests.get(2).messages()).extracting((message) -> message.role().name())
			.as("the cut moved back to keep the calls with both results")
			.containsExactly("SYSTEM", "USER", "ASSISTANT", "TOOL", "TOOL");
		assertThat(requests.get(2).messages().get(1).text()).isEqualTo(summary(1));
		assertThat(requests.get(3).messages()).extracting(Message::text)
			.containsExactly("Be helpful.", summary(2), "", result);
		List<Message> afterTurn = this.store.load("s").block().messages();
		BuiltinTestTools.assertWellFormed(afterTurn);
		assertThat(afterTurn).as("a summary written inside the tool loop is stored when the turn ends")
			.extracting(Message::text)
			.containsExactly(summary(2), "", result, "done");

		agent.call("s", question(2));

		List<Message> stored = this.store.load("s").block().messages();
		BuiltinTestTools.assertWellFormed(stored);
		assertThat(stored).extracting(Message::text).containsExactly(summary(3), "done", question(2), "three");
	}

	@Test
	void aFailingSummarizerLeavesTheRequestWhole() {
		ScriptedChatModel broken = ScriptedChatModel.answering((request) -> {
			throw new ModelServerException("scripted", 500, "down");
		});
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok"));
		Agent agent = Agent.builder()
			.name("summarizing")
			.model(model)
			.conversationStore(this.store)
			.middleware(SummarizationMiddleware.builder(broken).triggerTokens(10).keepMessages(1).build())
			.build();

		agent.call("s", question(1));
		agent.call("s", question(2));

		assertThat(broken.requests()).as("no second attempt in the same turn").hasSize(1);
		assertThat(model.requests().get(1).messages()).hasSize(3);
		assertThat(this.store.load("s").block().messages()).hasSize(4);
	}

	@Test
	void leavesConversationsUnderTheThresholdAlone() {
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("ok"));
		Agent agent = agent(model, 10_000, 2);

		for (int i = 0; i < 4; i++) {
			agent.call("s", question(i));
		}

		assertThat(this.summarizer.requests()).isEmpty();
		assertThat(model.requests().get(3).messages()).hasSize(7);
	}

	@Test
	void cutPointMovesBackOverToolResults() {
		SummarizationMiddleware middleware = middleware(1, 2);
		ToolCall call = new ToolCall("c1", "lookup", "{}");
		List<Message> conversation = List.of(new UserMessage("a"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "x"), AssistantMessage.of("b"));

		assertThat(middleware.cutPoint(conversation)).isEqualTo(1);
	}

	@Test
	void builderRejectsInvalidSettingsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> SummarizationMiddleware.builder(this.summarizer)
			.triggerTokens(0)).withMessage("'triggerTokens' must be at least 1, was 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SummarizationMiddleware.builder(this.summarizer).keepMessages(0))
			.withMessage("'keepMessages' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> SummarizationMiddleware.builder(this.summarizer)
			.prompt(" ")).withMessage("'prompt' must not be blank");
	}

	private Agent agent(ScriptedChatModel model, long triggerTokens, int keepMessages) {
		return Agent.builder()
			.name("summarizing")
			.model(model)
			.conversationStore(this.store)
			.middleware(middleware(triggerTokens, keepMessages))
			.build();
	}

	private SummarizationMiddleware middleware(long triggerTokens, int keepMessages) {
		return SummarizationMiddleware.builder(this.summarizer)
			.triggerTokens(triggerTokens)
			.keepMessages(keepMessages)
			.build();
	}

	/** A user message of 200 characters, about 54 tokens. */
	private static String question(int n) {
		String start = "question " + n + " ";
		return start + "x".repeat(200 - start.length());
	}

	private static String summary(int n) {
		return SummarizationMiddleware.SUMMARY_PREFIX + "\nSUMMARY " + n;
	}

}
