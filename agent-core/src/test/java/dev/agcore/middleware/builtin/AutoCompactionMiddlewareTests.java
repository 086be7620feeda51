package dev.agcore.middleware.builtin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.memory.window.Conversations;
import dev.agcore.memory.window.TokenCounter;
import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.middleware.AgentContext;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ModelServerException;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static dev.agcore.testing.ScriptedChatModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class AutoCompactionMiddlewareTests {

	/** One token per character, no framing: thresholds are easy to reason about. */
	private static final TokenCounter CHARS = (message) -> message.text().length();

	private static final String SUMMARY = SummarizationMiddleware.SUMMARY_PREFIX + "\nSUMMARY";

	private final AtomicInteger summaries = new AtomicInteger();

	private final AtomicBoolean summarizerDown = new AtomicBoolean();

	private final ScriptedChatModel summarizer = ScriptedChatModel.answering((request) -> {
		this.summaries.incrementAndGet();
		if (this.summarizerDown.get()) {
			throw new ModelServerException("scripted", 500, "down");
		}
		return text("SUMMARY");
	});

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void theDefaultThresholdIsTheSeeds() {
		assertThat(AutoCompactionMiddleware.builder(this.summarizer).build().threshold()).isEqualTo(95_000);
		assertThatIllegalStateException()
			.isThrownBy(() -> AutoCompactionMiddleware.builder(this.summarizer).contextWindow(30_000).build())
			.withMessageContaining("contextWindow (30000) must be larger than reservedTokens (20000) + 13000");
	}

	@Test
	void underTheThresholdNothingChanges() {
		List<Message> conversation = conversationWithToolRound(100);
		List<Message> before = List.copyOf(conversation);
		compact(middleware(1_000, 2), "s", conversation);
		assertThat(conversation).isEqualTo(before);
		assertThat(this.summaries).hasValue(0);
	}

	@Test
	void prunesOldToolResultsFirstWithoutCallingAModel() {
		List<Message> conversation = conversationWithToolRound(2_000);
		List<Message> before = List.copyOf(conversation);

		compact(middleware(1_000, 2), "s", conversation);

		assertThat(this.summaries).as("pruning was enough").hasValue(0);
		assertThat(conversation).hasSameSizeAs(before);
		assertThat(conversation.get(2)).isEqualTo(new ToolResultMessage("c1", "lookup", "[pruned]", false));
		assertThat(conversation.subList(3, conversation.size())).isEqualTo(before.subList(3, before.size()));
		Conversations.assertPaired(conversation);
		assertThat(outcome("pruned")).isEqualTo(1);
	}

	@Test
	void summarizesTheOlderPartWhenPruningIsNotEnoughAndKeepsTheLatestMessages() {
		List<Message> conversation = new ArrayList<>(conversationWithToolRound(2_000));
		conversation.addAll(0, List.of(new UserMessage("x".repeat(1_500)), AssistantMessage.of("old answer")));
		List<Message> before = List.copyOf(conversation);

		compact(middleware(1_000, 3), "s", conversation);

		assertThat(this.summaries).hasValue(1);
		assertThat(conversation.get(0).text()).isEqualTo(SUMMARY);
		assertThat(conversation.subList(1, conversation.size()))
			.as("the last three messages, and the call their first result answers, as they were")
			.isEqualTo(before.subList(before.size() - 4, before.size()));
		assertThat(this.summarizer.requests().get(0).messages().get(1).text()).as("the transcript of what was cut")
			.startsWith("User: xxx")
			.endsWith("Assistant: old answer\n\nUser: question");
		assertThat(outcome("summarized")).isEqualTo(1);
	}

	@Test
	void theCutNeverSeparatesACallFromItsResults() {
		ToolCall c1 = new ToolCall("c1", "lookup", "{}");
		ToolCall c2 = new ToolCall("c2", "lookup", "{}");
		List<Message> conversation = new ArrayList<>(List.of(new UserMessage("q".repeat(2_000)),
				AssistantMessage.of(List.of(c1, c2)), ToolResultMessage.success(c1, "r1"),
				ToolResultMessage.success(c2, "r2"), AssistantMessage.of("a"), new UserMessage("now")));

		// keeping 3 would start at r2: the cut moves back to the assistant message calling c1 and c2
		// (r1, before the last three, is pruned first)
		compact(middleware(1_000, 3), "s", conversation);

		assertThat(conversation).extracting(Message::text)
			.containsExactly(SUMMARY, "", "[pruned]", "r2", "a", "now");
		Conversations.assertPaired(conversation);
	}

	@Test
	void randomConversationsStayPairedAndKeepTheirLatestMessages() {
		Random random = new Random(7);
		for (int run = 0; run < 200; run++) {
			List<Message> conversation = new ArrayList<>(Conversations.random(random, 1 + random.nextInt(8)));
			List<Message> before = List.copyOf(conversation);
			int keepRecent = 1 + random.nextInt(8);
			long threshold = 1 + random.nextInt((int) CHARS.count(before) + 1);

			compact(middleware(threshold, keepRecent), "s" + run, conversation);

			Conversations.assertPaired(conversation);
			int kept = Math.min(keepRecent, before.size());
			assertThat(conversation.subList(conversation.size() - kept, conversation.size()))
				.as("run %d keeps its last %d messages", run, kept)
				.isEqualTo(before.subList(before.size() - kept, before.size()));
		}
	}

	@Test
	void theCircuitBreakerStopsAfterThreeConsecutiveFailures() {
		this.summarizerDown.set(true);
		AutoCompactionMiddleware middleware = middleware(1_000, 2);
		for (int attempt = 1; attempt <= 3; attempt++) {
			List<Message> conversation = bigConversation();
			compact(middleware, "s", conversation);
			assertThat(conversation.get(0).text()).as("a failed summary changes nothing").startsWith("xxx");
		}
		assertThat(this.summaries).hasValue(3);

		compact(middleware, "s", bigConversation());
		compact(middleware, "s", bigConversation());
		assertThat(this.summaries).as("no more attempts for the session").hasValue(3);
		assertThat(outcome("failed")).isEqualTo(3);
		assertThat(outcome("skipped")).isEqualTo(2);

		this.summarizerDown.set(false);
		compact(middleware, "other", bigConversation());
		assertThat(this.summaries).as("other sessions are still compacted").hasValue(4);
		compact(middleware, "s", bigConversation());
		assertThat(this.summaries).as("the tripped session stays stopped").hasValue(4);
	}

	@Test
	void aConversationThatCannotShrinkCountsAsAFailure() {
		AutoCompactionMiddleware middleware = middleware(10, 2);
		for (int attempt = 0; attempt < 4; attempt++) {
			// two messages, both kept: nothing to prune nor to summarize
			compact(middleware, "s", new ArrayList<>(List.of(AssistantMessage.of("a".repeat(50)),
					new UserMessage("u".repeat(50)))));
		}
		assertThat(outcome("failed")).isEqualTo(3);
		assertThat(outcome("skipped")).isEqualTo(1);
	}

	@Test
	void aSuccessResetsTheFailureCount() {
		AutoCompactionMiddleware middleware = middleware(1_000, 2);
		this.summarizerDown.set(true);
		compact(middleware, "s", bigConversation());
		compact(middleware, "s", bigConversation());
		this.summarizerDown.set(false);
		compact(middleware, "s", bigConversation());
		this.summarizerDown.set(true);
		compact(middleware, "s", bigConversation());
		compact(middleware, "s", bigConversation());
		compact(middleware, "s", bigConversation());
		assertThat(this.summaries).as("two failures, a success, then three failures: all six tried").hasValue(6);
		compact(middleware, "s", bigConversation());
		assertThat(this.summaries).hasValue(6);
	}

	@Test
	void withinATurnARequestOverTheThresholdHasItsOlderToolResultsPruned() {
		List<Message> conversation = conversationWithToolRound(2_000);
		ChatRequest request = ChatRequest.of(conversation);
		ChatRequest pruned = middleware(1_000, 2).beforeModel(BuiltinTestTools.context("s", Map.of()), request);
		assertThat(pruned.messages().get(2).text()).isEqualTo("[pruned]");
		assertThat(conversation.get(2).text()).as("the turn's own messages are left as they are").hasSize(2_000);
		assertThat(middleware(5_000, 2).beforeModel(BuiltinTestTools.context("s", Map.of()), request))
			.isSameAs(request);
	}

	@Test
	void theAgentStoresTheCompactedConversationInTheTurnThatCompacted() {
		InMemoryConversationStore store = new InMemoryConversationStore();
		ScriptedChatModel model = ScriptedChatModel.answering((request) -> text("answer"));
		Agent agent = Agent.builder()
			.model(model)
			.conversationStore(store)
			.middleware(middleware(1_000, 2))
			.build();

		agent.call("s", "x".repeat(400));
		agent.call("s", "y".repeat(400));
		assertThat(this.summaries).hasValue(0);
		String third = "z".repeat(300);
		agent.call("s", third);

		assertThat(this.summaries).hasValue(1);
		assertThat(model.requests().get(2).messages()).extracting(Message::text)
			.containsExactly(SUMMARY, "answer", third);
		assertThat(store.load("s").block().messages()).extracting(Message::text)
			.containsExactly(SUMMARY, "answer", third, "answer");
	}

	private AutoCompactionMiddleware middleware(long threshold, int keepRecent) {
		return AutoCompactionMiddleware.builder(this.summarizer)
			.contextWindow(threshold + 20_000 + AutoCompactionMiddleware.BUFFER_TOKENS)
			.keepRecent(keepRecent)
			.tokenCounter(CHARS)
			.meterRegistry(this.registry)
			.build();
	}

	private static void compact(AutoCompactionMiddleware middleware, String sessionId, List<Message> conversation) {
		AgentContext context = BuiltinTestTools.context(sessionId, Map.of());
		StepVerifier.create(middleware.beforeAgentAsync(context, conversation))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	/** user, a call, its result of the given length, an answer, a new message. */
	private static List<Message> conversationWithToolRound(int resultLength) {
		ToolCall call = new ToolCall("c1", "lookup", "{}");
		return new ArrayList<>(List.of(new UserMessage("question"), AssistantMessage.of(List.of(call)),
				ToolResultMessage.success(call, "r".repeat(resultLength)), AssistantMessage.of("answer"),
				new UserMessage("next")));
	}

	/** Over a threshold of 1,000 with nothing to prune. */
	private static List<Message> bigConversation() {
		return new ArrayList<>(List.of(new UserMessage("x".repeat(2_000)), AssistantMessage.of("a"),
				new UserMessage("now")));
	}

	private double outcome(String outcome) {
		var counter = this.registry.find("agent.compactions").tag("outcome", outcome).counter();
		return (counter != null) ? counter.count() : 0;
	}

}
