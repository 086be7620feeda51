package dev.agcore.middleware.builtin;

import java.util.List;

import dev.agcore.memory.InMemoryConversationStore;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.runtime.Agent;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static dev.agcore.testing.ScriptedChatModel.text;
import static dev.agcore.testing.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ContextEditingMiddlewareTests {

	private static final String LONG = "r".repeat(400);

	private final InMemoryConversationStore store = new InMemoryConversationStore();

	private final ScriptedChatModel model = ScriptedChatModel.replaying(
			toolCalls(call("c1", "lookup"), call("c2", "lookup"), call("c3", "notes"), call("c4", "lookup")),
			text("done"));

	@Test
	void clearsOldToolResultsButKeepsEveryMessage() {
		Agent agent = agent(ContextEditingMiddleware.builder().triggerTokens(200).keepToolResults(1).build());

		agent.call("s", "look things up");

		List<Message> sent = this.model.requests().get(1).messages();
		List<Message> stored = this.store.load("s").block().messages();
		assertThat(sent).hasSize(stored.size() - 1);
		assertThat(sent).filteredOn(ToolResultMessage.class::isInstance)
			.extracting(Message::text)
			.containsExactly(ContextEditingMiddleware.DEFAULT_PLACEHOLDER, ContextEditingMiddleware.DEFAULT_PLACEHOLDER,
					ContextEditingMiddleware.DEFAULT_PLACEHOLDER, LONG);
		assertThat(sent).filteredOn(ToolResultMessage.class::isInstance)
			.extracting("toolCallId")
			.containsExactly("c1", "c2", "c3", "c4");
		BuiltinTestTools.assertWellFormed(sent);
		assertThat(TokenEstimator.CHARS_PER_TOKEN.estimate(sent))
			.isLessThan(TokenEstimator.CHARS_PER_TOKEN.estimate(stored.subList(0, sent.size())));
		assertThat(stored).as("the stored conversation keeps full results")
			.filteredOn(ToolResultMessage.class::isInstance)
			.extracting(Message::text)
			.containsOnly(LONG);
	}

	@Test
	void neverClearsResultsOfExcludedTools() {
		Agent excluding = agent(ContextEditingMiddleware.builder()
			.triggerTokens(200)
			.keepToolResults(0)
			.excludeTools("notes")
			.placeholder("[cleared]")
			.build());

		excluding.call("s", "look things up");

		assertThat(this.model.requests().get(1).messages()).filteredOn(ToolResultMessage.class::isInstance)
			.extracting(Message::text)
			.containsExactly("[cleared]", "[cleared]", LONG, "[cleared]");
	}

	@Test
	void leavesRequestsUnderTheThresholdUnchanged() {
		Agent agent = agent(ContextEditingMiddleware.builder().triggerTokens(10_000).keepToolResults(0).build());

		agent.call("s", "look things up");

		assertThat(this.model.requests().get(1).messages()).filteredOn(ToolResultMessage.class::isInstance)
			.extracting(Message::text)
			.containsOnly(LONG);
	}

	@Test
	void builderRejectsInvalidSettingsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> ContextEditingMiddleware.builder().triggerTokens(0))
			.withMessage("'triggerTokens' must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ContextEditingMiddleware.builder().keepToolResults(-1))
			.withMessage("'keepToolResults' must not be negative, was -1");
	}

	private Agent agent(ContextEditingMiddleware editing) {
		return Agent.builder()
			.name("editing")
			.model(this.model)
			.conversationStore(this.store)
			.tool(BuiltinTestTools.tool("lookup", (args, ctx) -> LONG))
			.tool(BuiltinTestTools.tool("notes", (args, ctx) -> LONG))
			.middleware(editing)
			.build();
	}

	private static ToolCall call(String id, String tool) {
		return new ToolCall(id, tool, "{}");
	}

}
