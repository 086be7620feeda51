package dev.agcore.docs.multiagent;

import dev.agcore.memory.ConversationStore;
import dev.agcore.memory.KeyValueStore;
import dev.agcore.memory.SessionMode;
import dev.agcore.model.ChatModel;
import dev.agcore.runtime.Agent;

/** An agent that shares its sessions, from docs/multi-agent.md. */
class SharedSessions {

	static Agent build(ChatModel model, ConversationStore conversations, KeyValueStore keyValueStore) {
		// tag::mode[]
		Agent build = Agent.builder().name("build").model(model).systemPrompt("You build.")
			.conversationStore(conversations).store(keyValueStore)
			.sessionMode(SessionMode.SHARED) // or SessionMode.ISOLATED
			.build();
		// end::mode[]
		return build;
	}

}
