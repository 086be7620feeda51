package dev.agcore.docs.prompts;

import java.util.List;
import java.util.Map;

import dev.agcore.prompt.PromptTemplates;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

// tag::render[]
@Component
class SupportPrompts {

	@Autowired
	PromptTemplates templates;

	String prompt() {
		return this.templates.render("support/system", Map.of(
				"shop", "Tea & Co",
				"customer", new Customer("Ada", true),
				"orders", List.of(new Order("A-1001", "shipped")),
				"tone", "friendly"));
	}

	record Customer(String name, boolean vip) {
	}

	record Order(String id, String status) {
	}

}
// end::render[]
