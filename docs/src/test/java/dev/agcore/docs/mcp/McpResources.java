package dev.agcore.docs.mcp;

import java.util.List;
import java.util.Map;

import dev.agcore.mcp.McpClientRegistry;
import dev.agcore.mcp.McpConnection;
import dev.agcore.mcp.McpPrompt;
import dev.agcore.mcp.McpPromptResult;
import dev.agcore.mcp.McpResource;
import dev.agcore.mcp.McpResourceContents;
import reactor.core.publisher.Mono;

/** The resources and prompts of a server, from docs/mcp.md. */
class McpResources {

	static Read read(McpClientRegistry registry) {
		// tag::resources[]
		McpConnection everything = registry.connection("everything").orElseThrow();
		Mono<List<McpResource>> resources = everything.listResources();            // every page
		Mono<List<McpResourceContents>> features = everything.readResource("demo://resource/static/document/features.md");
		Mono<List<McpPrompt>> prompts = everything.listPrompts();                   // every page
		Mono<McpPromptResult> prompt = everything.getPrompt("args-prompt", Map.of("city", "Lisbon"));
		Mono<String> context = everything.readResourcesAsText(List.of("demo://resource/static/document/features.md",
				"demo://resource/static/document/startup.md"));
		// end::resources[]
		return new Read(resources, features, prompts, prompt, context);
	}

	/** What the snippet asked for, for the test to wait for. */
	record Read(Mono<List<McpResource>> resources, Mono<List<McpResourceContents>> features,
			Mono<List<McpPrompt>> prompts, Mono<McpPromptResult> prompt, Mono<String> context) {
	}

}
