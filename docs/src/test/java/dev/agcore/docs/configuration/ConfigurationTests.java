package dev.agcore.docs.configuration;

import java.util.Set;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import dev.agcore.docs.support.DocsTools;
import dev.agcore.docs.support.SnippetContexts;
import dev.agcore.middleware.AgentMiddleware;
import dev.agcore.model.ChatModelRegistry;
import dev.agcore.runtime.AgentRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference yml of docs/configuration.md starts, with the tools and the middleware
 * bean it names.
 */
class ConfigurationTests {

	@Test
	void referenceConfigurationStartsWithItsAgentsAndModels() {
		SnippetContexts.yaml("configuration/reference.yml")
			.withUserConfiguration(DocsTools.class, NotesTools.class)
			.withBean("auditMiddleware", AgentMiddleware.class, () -> new AgentMiddleware() {
			})
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(AgentRegistry.class).find("assistant")).isPresent();
				assertThat(context.getBean(AgentRegistry.class).find("researcher")).isPresent();
				assertThat(context.getBean(ChatModelRegistry.class).names())
					.containsAll(Set.of("fast", "strong", "openai", "claude"));
			});
	}

	/** Tools of the groups the reference names. */
	static class NotesTools {

		@Tool(name = "notes_search", description = "Search the notes", category = "notes", secrets = {})
		public String search(@ToolParam(description = "What to look for") String query) {
			return "no notes about " + query;
		}

		@Tool(name = "delete_draft", description = "Delete a draft", permission = "destructive", secrets = {})
		public String delete(@ToolParam(description = "Draft id") String id) {
			return "deleted " + id;
		}

		@Tool(name = "catalog_find", description = "Find a product", category = "catalog", secrets = {})
		public String find(@ToolParam(description = "Product name") String name) {
			return "no product " + name;
		}

	}

}
