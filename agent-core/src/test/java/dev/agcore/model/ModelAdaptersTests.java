package dev.agcore.model;

import java.util.List;

import dev.agcore.message.AssistantMessage;
import dev.agcore.message.Message;
import dev.agcore.message.Reasoning;
import dev.agcore.message.SystemMessage;
import dev.agcore.message.UserMessage;
import dev.agcore.tool.ToolSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ModelAdapters}.
 */
class ModelAdaptersTests {

	private static final ToolSpec TOOL = new ToolSpec("search", "Search", JsonNodeFactory.instance.objectNode());

	private static final ChatOptions SAMPLING = ChatOptions.builder()
		.temperature(0.2)
		.topP(0.9)
		.frequencyPenalty(0.1)
		.presencePenalty(0.3)
		.maxTokens(100)
		.build();

	@Test
	void reasoningModelsLoseSamplingOptionsAndKeepTheRest() {
		ModelAdapter adapter = ModelAdapters.reasoningSampling();
		for (String model : List.of("o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini", "deepseek-reasoner",
				"openai/o3")) {
			assertThat(adapter.supports("openai", model)).as(model).isTrue();
		}
		for (String model : List.of("gpt-4o", "gpt-4.1-mini", "o1x", "deepseek-chat", "claude-sonnet-4")) {
			assertThat(adapter.supports("openai", model)).as(model).isFalse();
		}
		ChatRequest adapted = adapter.adapt(new ChatRequest(List.of(new UserMessage("hi")), List.of(), SAMPLING));
		assertThat(adapted.options()).isEqualTo(ChatOptions.builder().maxTokens(100).build());
	}

	@Test
	void toolShyModelsGetGuidanceWhenToolsAreOffered() {
		ModelAdapter adapter = ModelAdapters.toolUseGuidance();
		assertThat(adapter.supports("ollama", "anything")).isTrue();
		assertThat(adapter.supports("openai", "meta-llama/llama-3.1-8b-instruct")).isTrue();
		assertThat(adapter.supports("openai", "gpt-4o")).isFalse();

		ChatRequest withPrompt = new ChatRequest(List.of(new SystemMessage("Be brief."), new UserMessage("hi")),
				List.of(TOOL), ChatOptions.DEFAULTS);
		assertThat(adapter.adapt(withPrompt).messages().get(0))
			.isEqualTo(new SystemMessage("Be brief.\n\n" + ModelAdapters.TOOL_GUIDANCE));
		ChatRequest withoutPrompt = new ChatRequest(List.of(new UserMessage("hi")), List.of(TOOL), ChatOptions.DEFAULTS);
		assertThat(adapter.adapt(withoutPrompt).messages()).extracting(Message::text)
			.containsExactly(ModelAdapters.TOOL_GUIDANCE, "hi");
		// no tools, or tools forbidden: nothing to guide
		ChatRequest noTools = ChatRequest.of(List.of(new UserMessage("hi")));
		assertThat(adapter.adapt(noTools)).isSameAs(noTools);
		ChatRequest none = new ChatRequest(List.of(new UserMessage("hi")), List.of(TOOL),
				ChatOptions.builder().toolChoice(ToolChoice.NONE).build());
		assertThat(adapter.adapt(none)).isSameAs(none);
	}

	@Test
	void consecutiveSystemMessagesMergeAndEmptyAssistantMessagesGo() {
		ModelAdapter adapter = ModelAdapters.messageShape();
		ChatRequest request = ChatRequest.of(List.of(new SystemMessage("one"), new SystemMessage("two"),
				SystemMessage.developer("dev"), new UserMessage("hi"), AssistantMessage.of(""),
				new AssistantMessage("", List.of(), List.of(Reasoning.of("kept")), null), new UserMessage("again")));

		assertThat(adapter.adapt(request).messages()).containsExactly(new SystemMessage("one\n\ntwo"),
				SystemMessage.developer("dev"), new UserMessage("hi"),
				new AssistantMessage("", List.of(), List.of(Reasoning.of("kept")), null), new UserMessage("again"));
		ChatRequest fine = ChatRequest.of(List.of(new SystemMessage("one"), new UserMessage("hi")));
		assertThat(adapter.adapt(fine)).isSameAs(fine);
	}

	@Test
	void applyRunsEveryMatchingAdapterInOrder() {
		ChatRequest request = new ChatRequest(List.of(new UserMessage("hi")), List.of(TOOL), SAMPLING);
		ChatRequest adapted = ModelAdapters.apply(ModelAdapters.builtIns(), "ollama", "qwen3:4b", request);
		assertThat(adapted.options()).isEqualTo(SAMPLING);
		assertThat(adapted.messages().get(0).text()).isEqualTo(ModelAdapters.TOOL_GUIDANCE);
		assertThat(ModelAdapters.apply(List.of(), "ollama", "qwen3:4b", request)).isSameAs(request);
	}

}
