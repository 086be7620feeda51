package dev.agcore.docs.memory;

import dev.agcore.memory.window.ContextWindow;
import dev.agcore.middleware.builtin.AutoCompactionMiddleware;
import dev.agcore.memory.window.TokenCounter;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;
import io.micrometer.core.instrument.MeterRegistry;

/** Context windows and compaction in Java, from docs/memory.md. */
class Windows {

	static Agent lastMessages(ChatModel model) {
		// tag::window[]
		Agent agent = Agent.builder()
			.model(model)
			.contextWindow(ContextWindow.lastMessages(20))
			// or: ContextWindow.lastTokens(32_000, TokenCounter.forModel("gpt-4o")), ContextWindow.full()
			.build();
		// end::window[]
		return agent;
	}

	static Agent compacting(ChatModel model, ChatModel cheapModel, MeterRegistry meterRegistry) {
		// tag::compaction[]
		Agent agent = Agent.builder()
			.model(model)
			.middleware(AutoCompactionMiddleware.builder(cheapModel)
				.contextWindow(128_000)
				.reservedTokens(20_000)
				.keepRecent(6)
				.tokenCounter(TokenCounter.forModel("gpt-4o"))
				.meterRegistry(meterRegistry)   // optional
				.build())
			.build();
		// end::compaction[]
		return agent;
	}

}
