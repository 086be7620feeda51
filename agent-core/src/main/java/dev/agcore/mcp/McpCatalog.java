package dev.agcore.mcp;

import java.util.List;
import java.util.Locale;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * Turns the SDK's resource and prompt types into this package's records, so that code
 * using the resources and prompts API needs no SDK types.
 */
final class McpCatalog {

	private McpCatalog() {
	}

	static McpResource resource(McpSchema.Resource resource) {
		return new McpResource(resource.uri(), (resource.name() != null) ? resource.name() : resource.uri(),
				resource.title(), resource.description(), resource.mimeType());
	}

	static McpResourceContents contents(McpSchema.ResourceContents contents) {
		if (contents instanceof McpSchema.TextResourceContents text) {
			return new McpResourceContents(text.uri(), text.mimeType(), (text.text() != null) ? text.text() : "", null);
		}
		String blob = (contents instanceof McpSchema.BlobResourceContents binary) ? binary.blob() : null;
		return new McpResourceContents(contents.uri(), contents.mimeType(), null, (blob != null) ? blob : "");
	}

	static McpPrompt prompt(McpSchema.Prompt prompt) {
		List<McpPrompt.Argument> arguments = (prompt.arguments() != null) ? prompt.arguments()
			.stream()
			.map((argument) -> new McpPrompt.Argument(argument.name(), argument.description(),
					Boolean.TRUE.equals(argument.required())))
			.toList() : List.of();
		return new McpPrompt(prompt.name(), prompt.title(), prompt.description(), arguments);
	}

	static McpPromptResult prompt(McpSchema.GetPromptResult result) {
		List<McpPromptResult.Message> messages = (result.messages() != null) ? result.messages()
			.stream()
			.map((message) -> new McpPromptResult.Message(
					(message.role() != null) ? message.role().name().toLowerCase(Locale.ROOT) : "user",
					text(message.content())))
			.toList() : List.of();
		return new McpPromptResult(result.description(), messages);
	}

	/** Resources read for a turn, as text: each part under a line naming its URI, cut as tool results are. */
	static String asText(List<McpSchema.ResourceContents> contents) {
		StringBuilder text = new StringBuilder();
		for (McpSchema.ResourceContents part : contents) {
			if (!text.isEmpty()) {
				text.append("\n\n");
			}
			text.append(McpContentText.resource(part));
		}
		return McpContentText.bounded(text);
	}

	private static String text(McpSchema.Content content) {
		StringBuilder text = new StringBuilder();
		McpContentText.append(text, content);
		return text.toString();
	}

}
