package dev.agcore.docs.prompts;

import java.util.Map;

import dev.agcore.prompt.PromptTemplate;
import dev.agcore.prompt.PromptTemplates;

/** Templates without Spring Boot, from docs/prompts.md. */
class StandaloneTemplates {

	static String render() {
		// tag::standalone[]
		PromptTemplates templates = new PromptTemplates();
		templates.register("shared/tone", "Answer in a {{tone}} way.");        // compiled now
		templates.registerLazy("support/system", "You help {{customer}}. {{> shared/tone}}"); // on first use
		templates.validate();                                                  // all parse, partials exist
		String text = templates.render("support/system", Map.of("customer", "Ada", "tone", "calm"));

		PromptTemplate one = PromptTemplate.compile("Hello {{name}}");          // alone, no partials
		// end::standalone[]
		return text + "|" + one.render(Map.of("name", "Ada"));
	}

}
