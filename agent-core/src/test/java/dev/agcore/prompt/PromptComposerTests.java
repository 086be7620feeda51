package dev.agcore.prompt;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.ToolCall;
import dev.agcore.message.ToolResultMessage;
import dev.agcore.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link PromptComposer}.
 */
class PromptComposerTests {

	private static final ToolCall CALL = new ToolCall("c1", "lookup", "{}");

	@Test
	void buildsMessagesOfEveryKindFromTextAndTemplates() {
		PromptTemplates templates = new PromptTemplates();
		templates.register("system", "You serve {{shop}}.");
		Media image = Media.url(URI.create("https://example.com/a.png"), "image/png");

		List<Message> messages = PromptComposer.create()
			.systemTemplate(templates.get("system"), Map.of("shop", "Tea & Co"))
			.developer("Be brief.")
			.user("What is this?", image)
			.withName("ada")
			.assistant("", List.of(CALL))
			.tool("c1", "lookup", "a teapot")
			.assistantTemplate(PromptTemplate.compile("It is {{what}}."), Map.of("what", "a teapot"))
			.build();

		assertThat(messages).containsExactly(new SystemMessage("You serve Tea & Co."), SystemMessage.developer("Be brief."),
				new UserMessage("What is this?", List.of(image), "ada"), new AssistantMessage("", List.of(CALL)),
				new ToolResultMessage("c1", "lookup", "a teapot", false), AssistantMessage.of("It is a teapot."));
		assertThatNoException().isThrownBy(() -> PromptComposer.validateMessages(messages));
	}

	@Test
	void startsFromAHistoryAndBuildsAnImmutableCopy() {
		PromptComposer composer = PromptComposer.from(List.of(new UserMessage("hi"), AssistantMessage.of("hello")));

		List<Message> first = composer.build();
		composer.user("again");

		assertThat(first).hasSize(2);
		assertThat(composer.build()).hasSize(3);
	}

	@Test
	void withNameNeedsAUserMessageLast() {
		assertThatIllegalStateException().isThrownBy(() -> PromptComposer.create().withName("ada"))
			.withMessage("withName needs a message to name; add one first");
		assertThatIllegalStateException().isThrownBy(() -> PromptComposer.create().system("x").withName("ada"))
			.withMessage("withName names user messages only; the last message is a system message");
	}

	@Test
	void validationRefusesAnEmptyList() {
		assertInvalid(List.of(), "Invalid message sequence: the message list is empty");
	}

	@Test
	void validationRefusesAToolResultWithoutTheCallBeforeIt() {
		assertInvalid(List.of(new UserMessage("hi"), new ToolResultMessage("c1", "lookup", "x", false)),
				"Invalid message sequence: message 1 is a tool result, but no assistant message with tool calls "
						+ "comes right before it");
		assertInvalid(
				List.of(new UserMessage("hi"), AssistantMessage.of(List.of(CALL)),
						new ToolResultMessage("c2", "lookup", "x", false)),
				"Invalid message sequence: message 2 answers tool call 'c2', which the assistant message before it "
						+ "did not make (it made [c1])");
		assertInvalid(List.of(new UserMessage("hi"), AssistantMessage.of(List.of(CALL)), new UserMessage("more"),
				new ToolResultMessage("c1", "lookup", "x", false)),
				"Invalid message sequence: message 3 is a tool result, but no assistant message with tool calls "
						+ "comes right before it");
	}

	@Test
	void validationAllowsSeveralResultsInARowAndRepeatedSystemMessages() {
		ToolCall second = new ToolCall("c2", "lookup", "{}");
		List<Message> messages = List.of(new SystemMessage("a"), new SystemMessage("b"), new UserMessage("hi"),
				AssistantMessage.of(List.of(CALL, second)), new ToolResultMessage("c2", "lookup", "x", false),
				new ToolResultMessage("c1", "lookup", "y", false), AssistantMessage.of("done"));

		assertThatNoException().isThrownBy(() -> PromptComposer.validateMessages(messages));
	}

	@Test
	void validationRefusesTwoUserOrTwoAssistantMessagesInARow() {
		assertInvalid(List.of(new UserMessage("a"), new UserMessage("b")),
				"Invalid message sequence: messages 0 and 1 are both user messages");
		assertInvalid(List.of(new UserMessage("a"), AssistantMessage.of("b"), AssistantMessage.of("c")),
				"Invalid message sequence: messages 1 and 2 are both assistant messages");
	}

	private static void assertInvalid(List<Message> messages, String message) {
		assertThatExceptionOfType(PromptException.class).isThrownBy(() -> PromptComposer.validateMessages(messages))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(PromptException.Kind.INVALID_SEQUENCE))
			.withMessage(message);
	}

}
