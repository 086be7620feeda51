package dev.agcore.model;

import java.math.BigDecimal;
import java.util.List;

import dev.agcore.message.UserMessage;
import dev.agcore.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConfiguredChatModelTests {

	@Test
	void defaultOptionsFillWhatTheRequestLeavesOpen() {
		ScriptedChatModel delegate = ScriptedChatModel.replaying(ScriptedChatModel.text("a"),
				ScriptedChatModel.text("b"));
		ChatOptions defaults = ChatOptions.builder().model("small").temperature(0.1).maxTokens(100).build();
		ConfiguredChatModel model = new ConfiguredChatModel("fast", delegate, defaults, null, null);
		ChatRequest request = new ChatRequest(List.of(UserMessage.of("q")), List.of(),
				ChatOptions.builder().temperature(0.9).build());

		model.call(request).block();
		model.stream(request).blockLast();

		for (ChatRequest sent : delegate.requests()) {
			assertThat(sent.options().temperature()).isEqualTo(0.9);
			assertThat(sent.options().maxTokens()).isEqualTo(100);
			assertThat(sent.options().model()).isEqualTo("small");
		}
		assertThat(model.modelName()).isEqualTo("small");
		assertThat(model.providerName()).isEqualTo("scripted");
	}

	@Test
	void costUsesThePriceAndIsNullWithoutOne() {
		ScriptedChatModel delegate = ScriptedChatModel.replaying(ScriptedChatModel.text("a"));
		ConfiguredChatModel priced = new ConfiguredChatModel("fast", delegate, ChatOptions.DEFAULTS,
				ModelPrice.of(1, 4), 128_000);
		ConfiguredChatModel free = new ConfiguredChatModel("other", delegate, ChatOptions.DEFAULTS, null, null);

		assertThat(priced.cost(Usage.of(1_000_000, 1_000_000))).isEqualByComparingTo(new BigDecimal("5"));
		assertThat(priced.contextWindow()).isEqualTo(128_000);
		assertThat(free.cost(Usage.of(10, 10))).isNull();
	}

}
