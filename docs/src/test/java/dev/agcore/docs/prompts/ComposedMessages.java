package dev.agcore.docs.prompts;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.agcore.message.Media;
import dev.agcore.message.Message;
import dev.agcore.message.ToolCall;
import dev.agcore.prompt.PromptComposer;
import dev.agcore.prompt.PromptTemplates;

/** Messages composed from text and templates, from docs/prompts.md. */
class ComposedMessages {

	static List<Message> compose(PromptTemplates templates) {
		// tag::composer[]
		List<Message> messages = PromptComposer.create()
				.systemTemplate(templates.get("support/system"), Map.of("shop", "Tea & Co"))
				.developer("Answer in one sentence.")      // OpenAI's developer role, system elsewhere
				.user("What is in this picture?", Media.url(URI.create("https://example.com/a.png"), "image/png"))
				.withName("ada")                            // names the last message (user messages only)
				.assistant("", List.of(new ToolCall("c1", "lookup", "{}")))
				.tool("c1", "lookup", "a teapot")
				.build();

		PromptComposer.validateMessages(messages);
		// end::composer[]
		return messages;
	}

}
